package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.ServiceProcess;
import dev.switchboard.bridge.support.Teardown;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * B14 and DESIGN "Faults": the service runs as its own process ({@code switchboard-app.jar serve}),
 * is killed with SIGKILL while turns are in flight, and is started again on the same store. Every
 * accepted message must end with exactly one outcome, and the agent (a slow A2A 1.0 testkit agent in
 * this JVM, which keeps working while the service is down) must receive each messageId at most once:
 * the bridge follows a known task with GetTask and looks an unknown outcome up with ListTasks instead
 * of sending again.
 *
 * <p>Runs in failsafe's integration-test phase, after {@code package} built the jar; it builds nothing.
 */
@ServerTest
@ProcessTest
class CrashRecoveryIT {

    private static final long SLOW_MS = 2500;
    private static final Duration SETTLE = Duration.ofSeconds(60);
    /**
     * Streamed in 16 pieces over ~24 s, so it is still running when the restarted service follows it again,
     * however slowly a loaded machine restarts the service (~10 s was not enough).
     */
    private static final String STREAMED = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen";

    @TempDir
    Path dir;

    Vertx vertx;
    TestAgent agent;
    ServiceProcess service;

    @BeforeEach
    void start() throws Exception {
        // surefire may pick this class up through a -Dtest pattern, before package has built a fresh jar
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null,
                "CrashRecoveryIT runs in failsafe's integration-test phase, which names the packaged jar");
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("slow").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/slow " + SLOW_MS), 0).await();
        Path config = dir.resolve("switchboard.yaml");
        Files.writeString(config, ConfigYaml.server(dir.resolve("crash.db"), false, ConfigYaml.QUICK_CONTRACT + """
                        giveUpAfter: 2m
                        """)
                .webAgent("slow", agent.url(), false)
                .yaml());
        // kept under target/ so a failure can be read after the run
        service = new ServiceProcess(config, Path.of("target", "crash-recovery"));
    }

    @AfterEach
    void stop() throws Exception {
        Teardown.stop(service, agent, vertx);
    }

    @Test
    void turnsInFlightAndQueuedSurviveAKillAndRunOnce() throws Exception {
        ChatApi chat = startService();
        Map<String, List<String>> accepted = new LinkedHashMap<>(); // threadId → messageIds answered 201

        // round 1: five threads, each with a running first turn and a reply queued behind it; a sixth whose answer
        // is streaming in (partly shown when the service dies); a seventh waiting for the answer to a question
        List<Sent> firsts = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            Sent a = chat.newThread("slow", "thread " + i + ", first");
            firsts.add(a);
            accepted.computeIfAbsent(a.threadId(), k -> new ArrayList<>()).add(a.messageId());
        }
        Sent streaming = chat.newThread("slow", "/stream 16 1500\n" + STREAMED);
        accepted.put(streaming.threadId(), new ArrayList<>(List.of(streaming.messageId())));
        Sent asking = chat.newThread("slow", "/ask Who goes there?");
        accepted.put(asking.threadId(), new ArrayList<>(List.of(asking.messageId())));
        for (Sent a : firsts) {
            accepted.get(a.threadId()).add(chat.send(a.threadId(), "a reply queued behind " + a.messageId()).messageId());
        }
        accepted.get(streaming.threadId()).add(chat.send(streaming.threadId(), "after the stream").messageId());
        // every first turn has its task (the step that saw it is committed): the kill lands mid-task
        for (Sent a : firsts) {
            chat.awaitState(a.threadId(), a.messageId(), "running");
        }
        chat.awaitPosts(streaming.threadId(), "part of the streamed answer shown", p -> p.stream()
                .anyMatch(x -> "agent".equals(x.kind()) && !x.text().isEmpty() && x.text().length() < STREAMED.length()));
        chat.awaitState(asking.threadId(), asking.messageId(), "waiting_for_answer");
        service.kill();

        chat = startService();
        assertThat(resumedSessions()).as("sessions resumed at the restart").isEqualTo(7);
        // the question survived: still open, asked once, and the next message answers it
        List<Post> stillAsking = chat.awaitState(asking.threadId(), asking.messageId(), "waiting_for_answer");
        assertThat(stillAsking).filteredOn(p -> "question".equals(p.kind())).extracting(Post::text)
                .containsExactly("Who goes there?");
        String answer = chat.send(asking.threadId(), "A friend.").messageId();
        accepted.get(asking.threadId()).add(answer);
        awaitAllSettled(chat, accepted);
        assertOnceEach(accepted);
        assertThat(agent.recorder().rpcMethods()).as("restarted turns with a task are read (and the one still streaming "
                + "followed again), not resent").contains("GetTask", "SubscribeToTask");
        assertThat(agent.recorder().rpcRequests().stream().filter(r -> answer.equals(r.messageId())).findFirst()
                .orElseThrow().taskId()).as("the answer goes to the task that asked, across the restart").isNotNull();
        report("round 1");

        // round 2: in threads that have a context, a third turn runs with two replies queued behind it; the kill
        // comes as the first queued reply becomes the running turn (it may be mid-send, where only ListTasks can
        // tell whether the agent has it), while more messages are arriving in a new thread
        List<String> threads = new ArrayList<>(accepted.keySet());
        for (String t : threads) {
            accepted.get(t).add(chat.send(t, "third in " + t.substring(0, 8)).messageId());
        }
        for (String t : threads) {
            accepted.get(t).add(chat.send(t, "fourth in " + t.substring(0, 8)).messageId());
            accepted.get(t).add(chat.send(t, "fifth in " + t.substring(0, 8)).messageId());
        }
        List<String> fourths = threads.stream().map(t -> accepted.get(t).get(3)).toList();
        Sent opened = chat.newThread("slow", "a thread opened just before the crash");
        String arriving = opened.threadId();
        accepted.put(arriving, new ArrayList<>(List.of(opened.messageId())));
        String base = chat.base();
        Awaitility.await("a queued fourth turn to start").atMost(SETTLE).pollInterval(Duration.ofMillis(20))
                .until(() -> fourths.stream().anyMatch(id -> !"queued".equals(stateIn(base, id, threads))));
        // messages still arriving as the service dies: some answered, some cut off
        List<String> unanswered = Collections.synchronizedList(new ArrayList<>());
        List<String> answered = Collections.synchronizedList(new ArrayList<>());
        Thread poster = new Thread(() -> {
            ChatApi c = new ChatApi(base);
            for (int n = 1; n <= 3; n++) {
                String text = "arriving " + n;
                try {
                    HttpResponse<String> r = c.trySend("/api/chat/threads/" + arriving + "/messages", text, "arriving-" + n);
                    if (r.statusCode() == 201) {
                        answered.add(ChatApi.read(r.body()).path("messageId").asText()); // the id is the service's
                    } else {
                        unanswered.add(text);
                    }
                } catch (IOException e) {
                    unanswered.add(text); // the service died under it: it may or may not have been accepted
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "arriving-messages");
        poster.start();
        Awaitility.await("one arriving message accepted").until(() -> !answered.isEmpty());
        service.kill();
        poster.join(20_000);
        accepted.get(arriving).addAll(answered);

        chat = startService();
        // messages whose POST died with the service count when the store has them (by their text: the service
        // derived their ids, and did not say them)
        for (String text : unanswered) {
            chat.posts(arriving).stream().filter(p -> p.isUser() && text.equals(p.text())).map(Post::id)
                    .forEach(accepted.get(arriving)::add);
        }
        assertThat(resumedSessions()).as("sessions resumed at the second restart").isEqualTo(8);
        awaitAllSettled(chat, accepted);
        assertOnceEach(accepted);
        assertThat(accepted.values().stream().mapToInt(List::size).sum()).isGreaterThanOrEqualTo(36);
        report("round 2");
    }

    // ================= the service process =================

    private ChatApi startService() throws Exception {
        return new ChatApi(service.start());
    }

    /** What the last start logged about recovery (B14): "resumed N chat session(s) with unfinished turns". */
    private int resumedSessions() throws IOException {
        Matcher m = Pattern.compile("resumed (\\d+) chat session").matcher(service.errors());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    private void report(String round) {
        Map<String, Long> methods = agent.recorder().rpcMethods().stream()
                .collect(Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()));
        System.out.println(round + ": the agent received " + methods);
    }

    // ================= what must hold =================

    /**
     * Every accepted message ends completed; every turn has exactly one answer, echoing its text (or the
     * answer to its question), and nothing else was posted but the one question asked.
     */
    private void awaitAllSettled(ChatApi chat, Map<String, List<String>> accepted) {
        for (var e : accepted.entrySet()) {
            String threadId = e.getKey();
            List<String> ids = e.getValue();
            List<Post> posts = chat.awaitPosts(threadId, "every accepted message of " + threadId + " completed", SETTLE,
                    p -> ids.stream().allMatch(id -> p.stream().anyMatch(
                            x -> x.isUser() && x.id().equals(id) && ChatApi.FINAL.contains(x.state()))));
            assertThat(posts).filteredOn(Post::isUser).extracting(Post::id).containsAll(ids);
            for (Post user : posts.stream().filter(Post::isUser).toList()) {
                assertThat(user.state()).as("the outcome of %s", user.id()).isEqualTo("completed");
                if (!user.id().equals(user.turnMessageId())) {
                    continue; // an answer to a question: the turn it answers is checked
                }
                List<Post> answers = posts.stream()
                        .filter(p -> "agent".equals(p.kind()) && user.id().equals(p.turnMessageId())).toList();
                assertThat(answers).as("answers to %s", user.id()).hasSize(1);
                String echoed = posts.stream().filter(p -> p.isUser() && user.id().equals(p.turnMessageId()))
                        .reduce((a, b) -> b).map(Post::text).orElseThrow();
                assertThat(answers.get(0).text()).as("the answer to %s", user.id()).isEqualTo(echoOf(echoed));
            }
            assertThat(posts).as("notices in %s", threadId).filteredOn(p -> !p.isUser() && !"agent".equals(p.kind()))
                    .allMatch(p -> "question".equals(p.kind())).hasSizeLessThanOrEqualTo(1);
        }
    }

    /** What the testkit echoes: the text below a directive line, else the whole text (its prefix line is its own). */
    private static String echoOf(String text) {
        int newline = text.indexOf('\n');
        return text.startsWith("/") && newline > 0 ? text.substring(newline + 1) : text;
    }

    /** The agent received each accepted messageId exactly once: nothing lost, nothing run twice. */
    private void assertOnceEach(Map<String, List<String>> accepted) {
        Map<String, Long> counts = agent.recorder().messageIds().stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        Set<String> all = accepted.values().stream().flatMap(List::stream).collect(Collectors.toCollection(LinkedHashSet::new));
        assertThat(all).allSatisfy(id -> assertThat(counts.get(id)).as("sends of %s", id).isEqualTo(1L));
        assertThat(counts.keySet()).as("the agent got nothing that was not accepted").isSubsetOf(all);
    }

    private static String stateIn(String base, String messageId, List<String> threads) {
        ChatApi c = new ChatApi(base);
        for (String t : threads) {
            for (Post p : c.posts(t)) {
                if (p.id().equals(messageId)) {
                    return p.state();
                }
            }
        }
        return null;
    }

}
