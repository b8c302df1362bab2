package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.AwaitDefaults;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.it.AgentTap.Exchange;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The chat bridge end to end through the web chat's JSON API (C1) against testkit agents speaking
 * A2A 1.0 and, separately, only 0.3: what is sent (B3), the identity and headers (B4), the methods
 * and wire versions (B5), replies and task states (B6, B8), sessions and queueing (B7).
 *
 * <p>Every agent sits behind an {@link AgentTap}, so a test sees both what the agent received (its
 * Recorder) and what it answered. The bridge prefixes a person's text with {@code [Web: …]} on the
 * first line, where the testkit would look for a directive, so each behaviour is an agent's default
 * behaviour on a channel of its own.
 */
@ServerTest
class WebChatBridgeTest {

    private static final String QUESTION = "What is your name?";
    private static final String ADA_PREFIX = "[Web: Ada Lovelace (ada) <ada@example.com>]\n";
    private static final long SLOW_MS = 1200;

    /** Each channel's agent behaviour; the channel (and backend) name is {@code <scenario>-<version>}. */
    private static final Map<String, String> SCENARIOS = new LinkedHashMap<>();

    static {
        SCENARIOS.put("echo", "/echo");
        SCENARIOS.put("token", "/echo");
        SCENARIOS.put("stream", "/stream 5 60");
        SCENARIOS.put("slow", "/slow " + SLOW_MS);
        SCENARIOS.put("empty", "/empty");
        SCENARIOS.put("ask", "/ask " + QUESTION);
    }

    @TempDir
    static Path dir;

    static Vertx vertx;
    static SwitchboardApp app;
    static SwitchboardApp trustingApp;
    static ChatApi chat;
    static ChatApi trustingChat;
    static final Map<String, TestAgent> agents = new LinkedHashMap<>();
    static final Map<String, AgentTap> taps = new LinkedHashMap<>();

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        ConfigYaml config = ConfigYaml.server(dir.resolve("chat.db"), false, ConfigYaml.QUICK_CONTRACT);
        ConfigYaml trusting = ConfigYaml.server(dir.resolve("trusting.db"), true, ConfigYaml.QUICK_CONTRACT);
        for (ProtocolVersion v : ProtocolVersion.values()) {
            for (var s : SCENARIOS.entrySet()) {
                String name = channel(s.getKey(), v);
                TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo(name).withVersions(v)
                        .withDefaultBehavior(s.getValue()), 0).await();
                AgentTap tap = AgentTap.start(vertx, agent.port());
                agents.put(name, agent);
                taps.put(name, tap);
                config.webAgent(name, tap.url(), s.getKey().equals("token"));
            }
            String forwarded = channel("forwarded", v);
            TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo(forwarded).withVersions(v), 0).await();
            agents.put(forwarded, agent);
            trusting.webAgent(forwarded, agent.url(), false);
        }
        app = SwitchboardFixture.builder().vertx(vertx).yaml(config).start().app();
        trustingApp = SwitchboardFixture.builder().vertx(vertx).yaml(trusting).start().app();
        chat = new ChatApi(app.baseUrl());
        trustingChat = new ChatApi(trustingApp.baseUrl());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        if (trustingApp != null) {
            trustingApp.close().await();
        }
        taps.values().forEach(AgentTap::close);
        agents.values().forEach(a -> a.close().await());
        if (vertx != null) {
            vertx.close().await();
        }
    }

    static String channel(String scenario, ProtocolVersion v) {
        return scenario + "-" + (v == ProtocolVersion.V1_0 ? "v10" : "v03");
    }

    // ================= what is sent =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void firstTurnHasNoContextAndTheNextCarriesTheAgentsContext(ProtocolVersion v) {
        String name = channel("echo", v);
        Sent first = chat.newThread(name, "hello, switchboard");
        chat.awaitState(first.threadId(), first.messageId(), "completed");
        Sent second = chat.send(first.threadId(), "and a follow-up");
        Sent third = chat.send(first.threadId(), "and one more");
        List<Post> posts = chat.awaitPosts(first.threadId(), "all three turns completed", p -> p.stream()
                .filter(Post::isUser).filter(u -> "completed".equals(u.state())).count() == 3);

        // the thread: the three messages, each answered by the agent (an answer is posted when its text arrives,
        // so a message sent while the previous turn ran comes before that turn's answer)
        assertThat(posts).filteredOn(Post::isUser).extracting(Post::id)
                .containsExactly(first.messageId(), second.messageId(), third.messageId());
        assertThat(posts.get(0).author()).isEqualTo(ChatApi.JSON.createObjectNode()
                .put("id", "ada").put("name", "Ada Lovelace").put("email", "ada@example.com"));
        assertThat(posts).filteredOn(p -> "agent".equals(p.kind())).hasSize(3);
        assertEcho(answerTo(posts, first.messageId()), "hello, switchboard");
        assertEcho(answerTo(posts, second.messageId()), "and a follow-up");
        assertEcho(answerTo(posts, third.messageId()), "and one more");

        // the agent received each chat message once, under the chat's own messageId
        TestAgent agent = agents.get(name);
        List<String> ids = List.of(first.messageId(), second.messageId(), third.messageId());
        List<RecordedRequest> sends = agent.recorder().rpcRequests().stream()
                .filter(r -> r.isSend() && ids.contains(r.messageId())).toList();
        assertThat(sends).extracting(RecordedRequest::messageId).containsExactlyElementsOf(ids);
        // the first turn of a thread has no context; later turns carry the one the agent created
        String agentsContext = taps.get(name).sendsOf(first.messageId()).get(0).first("contextId").orElseThrow();
        assertThat(sends.get(0).contextId()).isNull();
        assertThat(sends.get(1).contextId()).isEqualTo(agentsContext);
        assertThat(sends.get(2).contextId()).isEqualTo(agentsContext);
        assertThat(taps.get(name).sendsOf(second.messageId()).get(0).first("contextId")).contains(agentsContext);
        for (RecordedRequest send : sends) {
            assertThat(send.taskId()).as("a new turn never sets taskId").isNull();
            assertThat(send.metadata().path("agentkourier.dev/actor")).isEqualTo(ChatApi.JSON.createObjectNode()
                    .put("id", "ada").put("name", "Ada Lovelace").put("email", "ada@example.com"));
            assertThat(send.text()).startsWith(ADA_PREFIX);
            assertOneTextPart(send);
            assertWireVersion(send, v);
            assertIdentity(send, "X-User-Id", ConfigYaml.BOT_USER);
        }
        assertThat(agent.recorder().rpcMethods()).doesNotContain("SendMessage", "message/send");
        // the card is fetched with the same identity as every call (B1)
        List<RecordedRequest> cardFetches = agent.recorder().requests().stream()
                .filter(r -> "GET".equals(r.httpMethod())).toList();
        assertThat(cardFetches).isNotEmpty().allSatisfy(r -> {
            assertThat(r.path()).endsWith("/.well-known/agent-card.json");
            assertIdentity(r, "X-User-Id", ConfigYaml.BOT_USER);
        });
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void theBindingsBearerTokenIsTheOnlyIdentityHeader(ProtocolVersion v) {
        String name = channel("token", v);
        Sent first = chat.newThread(name, "who am I to you?");
        chat.awaitState(first.threadId(), first.messageId(), "completed");

        List<RecordedRequest> all = agents.get(name).recorder().requests();
        assertThat(all).isNotEmpty();
        assertThat(all).filteredOn(RecordedRequest::isSend).extracting(RecordedRequest::messageId)
                .containsExactly(first.messageId());
        assertThat(all).allSatisfy(r -> assertIdentity(r, "Authorization", "Bearer " + ConfigYaml.BINDING_TOKEN));
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aTrustedProxysForwardedUserIsTheActor(ProtocolVersion v) {
        String name = channel("forwarded", v);
        Sent first = trustingChat.newThread(name, "from behind the proxy", null,
                Map.of("X-Forwarded-User", "grace", "X-Forwarded-Email", "grace@example.com"));
        trustingChat.awaitState(first.threadId(), first.messageId(), "completed");
        // without the headers, the configured default user is the actor
        Sent second = trustingChat.send(first.threadId(), "no proxy headers this time");
        trustingChat.awaitState(first.threadId(), second.messageId(), "completed");

        List<RecordedRequest> sends = agents.get(name).recorder().rpcRequests().stream()
                .filter(RecordedRequest::isSend).toList();
        assertThat(sends).extracting(RecordedRequest::messageId).containsExactly(first.messageId(), second.messageId());
        assertThat(sends.get(0).metadata().path("agentkourier.dev/actor")).isEqualTo(ChatApi.JSON.createObjectNode()
                .put("id", "grace").put("name", "grace").put("email", "grace@example.com"));
        assertThat(sends.get(0).text()).isEqualTo("[Web: grace (grace) <grace@example.com>]\nfrom behind the proxy");
        assertThat(sends.get(1).metadata().path("agentkourier.dev/actor").path("id").asText()).isEqualTo("ada");
        assertThat(sends.get(1).text()).isEqualTo(ADA_PREFIX + "no proxy headers this time");
        assertThat(trustingChat.userPost(first.threadId(), first.messageId()).author().path("id").asText())
                .isEqualTo("grace");
    }

    @org.junit.jupiter.api.Test
    void forwardedUserHeadersAreIgnoredUnlessTrusted() {
        String name = channel("echo", ProtocolVersion.V1_0);
        Sent spoofed = chat.newThread(name, "who am I?", null,
                Map.of("X-Forwarded-User", "mallory", "X-Forwarded-Email", "mallory@example.com"));
        chat.awaitState(spoofed.threadId(), spoofed.messageId(), "completed");
        RecordedRequest send = agents.get(name).recorder().rpcRequests().stream()
                .filter(r -> spoofed.messageId().equals(r.messageId())).findFirst().orElseThrow();
        assertThat(send.metadata().path("agentkourier.dev/actor").path("id").asText()).isEqualTo("ada");
        assertThat(send.text()).isEqualTo(ADA_PREFIX + "who am I?");
        assertThat(chat.get("/api/chat/me").path("id").asText()).isEqualTo("ada");
    }

    @org.junit.jupiter.api.Test
    void channelsAreTheWebBindingsChannels() {
        JsonNode channels = chat.channels().path("channels");
        List<String> names = new ArrayList<>();
        channels.forEach(c -> {
            names.add(c.path("name").asText());
            assertThat(c.path("agent").asText()).as("the backend of %s", c).isEqualTo(c.path("name").asText());
        });
        assertThat(names).containsExactlyInAnyOrderElementsOf(taps.keySet());
    }

    // ================= replies =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void streamedArtifactChunksAreAssembledIntoOneAnswer(ProtocolVersion v) throws Exception {
        String name = channel("stream", v);
        Sent first = chat.newThread(name, "one two three four five six seven eight nine ten");
        chat.awaitState(first.threadId(), first.messageId(), "completed");

        // watch the thread's live updates while the second answer streams in
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpClient http = HttpClient.newHttpClient();
        CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> sse = http.sendAsync(HttpRequest.newBuilder(
                        URI.create(chat.base() + "/api/chat/threads/" + first.threadId() + "/events")).build(),
                HttpResponse.BodyHandlers.ofLines());
        HttpResponse<java.util.stream.Stream<String>> events = sse.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);
        var reader = Executors.newSingleThreadExecutor();
        reader.submit(() -> events.body().filter(l -> l.startsWith("data:")).map(l -> ChatApi.read(l.substring(5)))
                .filter(p -> "agent".equals(p.path("kind").asText())).forEach(p -> seen.add(p.path("text").asText())));
        try {
            String text = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
            Sent second = chat.send(first.threadId(), text);
            chat.awaitState(first.threadId(), second.messageId(), "completed");

            List<Post> posts = chat.posts(first.threadId());
            assertEcho(answerTo(posts, first.messageId()), "one two three four five six seven eight nine ten");
            String whole = answerTo(posts, second.messageId());
            assertEcho(whole, text);
            Awaitility.await("the live updates of the second answer")
                    .until(() -> seen.contains(whole));
            assertThat(seen).as("the answer grew chunk by chunk, each update a prefix of the whole")
                    .allMatch(whole::startsWith)
                    .anyMatch(t -> t.length() < whole.length());
            // the agent really sent it in 5 pieces, appended after the first
            Exchange stream = taps.get(name).sendsOf(second.messageId()).get(0);
            assertThat(stream.responses().stream().filter(r -> r.path("result").toString().contains("artifact")).count())
                    .isGreaterThanOrEqualTo(5);
        } finally {
            events.body().close(); // hangs up the SSE connection
            reader.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aTaskCompletedWithoutArtifactTextPostsTheNotice(ProtocolVersion v) {
        Sent first = chat.newThread(channel("empty", v), "say nothing");
        List<Post> posts = chat.awaitState(first.threadId(), first.messageId(), "completed");

        assertThat(posts).extracting(Post::kind, Post::text).containsExactly(
                org.assertj.core.groups.Tuple.tuple("user", "say nothing"),
                org.assertj.core.groups.Tuple.tuple("notice", "The agent finished without any output."));
        assertThat(posts.get(1).turnMessageId()).isEqualTo(first.messageId());
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void taskStatesEndTheTurnWithTheirNotices(ProtocolVersion v) {
        // per-message directives: the testkit reads one on the line below the bridge's prefix
        String name = channel("echo", v);
        Sent failed = chat.newThread(name, "/fail 429 Too many requests, slow down");
        List<Post> posts = chat.awaitState(failed.threadId(), failed.messageId(), "failed");
        assertThat(posts).filteredOn(p -> "notice".equals(p.kind())).extracting(Post::text)
                .containsExactly("The agent's task failed. Reason: rate limit.");
        assertThat(posts).filteredOn(p -> !p.isUser()).extracting(Post::text).as("the agent's error text is never shown")
                .noneMatch(t -> t.contains("slow down"));

        Sent rejected = chat.send(failed.threadId(), "/reject");
        posts = chat.awaitState(failed.threadId(), rejected.messageId(), "rejected");
        assertThat(posts).filteredOn(p -> "notice".equals(p.kind()) && rejected.messageId().equals(p.turnMessageId()))
                .extracting(Post::text).containsExactly("The agent rejected the task.");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aNewContextFromTheAgentIsToldAndKept(ProtocolVersion v) {
        String name = channel("echo", v);
        Sent first = chat.newThread(name, "remember me");
        chat.awaitState(first.threadId(), first.messageId(), "completed");
        Sent forgot = chat.send(first.threadId(), "/newcontext\nwho are you again?");
        List<Post> posts = chat.awaitState(first.threadId(), forgot.messageId(), "completed");
        assertThat(posts).filteredOn(p -> "notice".equals(p.kind())).extracting(Post::text, Post::turnMessageId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("The agent no longer has this conversation",
                        forgot.messageId()));
        Sent after = chat.send(first.threadId(), "and now?");
        chat.awaitState(first.threadId(), after.messageId(), "completed");

        AgentTap tap = taps.get(name);
        String oldContext = tap.sendsOf(first.messageId()).get(0).first("contextId").orElseThrow();
        String newContext = tap.sendsOf(forgot.messageId()).get(0).first("contextId").orElseThrow();
        assertThat(newContext).isNotEqualTo(oldContext);
        assertThat(single(tap.sendsOf(forgot.messageId())).request().path("params").path("message").path("contextId")
                .asText()).isEqualTo(oldContext);
        assertThat(single(tap.sendsOf(after.messageId())).request().path("params").path("message").path("contextId")
                .asText()).as("the new context is kept").isEqualTo(newContext);
    }

    @org.junit.jupiter.api.Test
    void aSendDroppedBeforeAnyEventIsLookedUpWithListTasksNotSentAgain() {
        // A2A 1.0, a thread with a context: the outcome is unknown, so ListTasks finds the task (B5, B11)
        String name = channel("echo", ProtocolVersion.V1_0);
        Sent first = chat.newThread(name, "a context first");
        chat.awaitState(first.threadId(), first.messageId(), "completed");
        Sent dropped = chat.send(first.threadId(), "/drop 0 /slow 400\nfind me");
        List<Post> posts = chat.awaitState(first.threadId(), dropped.messageId(), "completed");
        assertEcho(answerTo(posts, dropped.messageId()), "find me");

        List<RecordedRequest> rpc = agents.get(name).recorder().rpcRequests();
        assertThat(rpc.stream().filter(r -> dropped.messageId().equals(r.messageId())).count())
                .as("sends of the dropped message").isEqualTo(1);
        RecordedRequest list = rpc.stream().filter(r -> "ListTasks".equals(r.rpcMethod())).reduce((a, b) -> b).orElseThrow();
        JsonNode params = ChatApi.read(list.body()).path("params");
        String context = taps.get(name).sendsOf(first.messageId()).get(0).first("contextId").orElseThrow();
        assertThat(params.path("contextId").asText()).isEqualTo(context);
        assertThat(params.has("historyLength")).as("ListTasks asks for history, where the messageId is found").isTrue();
    }

    // ================= sessions =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void repliesQueueBehindTheRunningTaskAndGoOutInOrder(ProtocolVersion v) {
        String name = channel("slow", v);
        Sent first = chat.newThread(name, "first");
        Sent second = chat.send(first.threadId(), "second");
        Sent third = chat.send(first.threadId(), "third");
        // while the first runs, the others wait in the thread
        assertThat(chat.userPost(first.threadId(), second.messageId()).state()).isEqualTo("queued");
        assertThat(chat.userPost(first.threadId(), third.messageId()).state()).isEqualTo("queued");

        List<Post> posts = chat.awaitPosts(first.threadId(), "three completed turns", p -> p.stream()
                .filter(u -> u.isUser() && "completed".equals(u.state())).count() == 3);
        assertEcho(answerTo(posts, first.messageId()), "first");
        assertEcho(answerTo(posts, second.messageId()), "second");
        assertEcho(answerTo(posts, third.messageId()), "third");

        AgentTap tap = taps.get(name);
        Exchange one = single(tap.sendsOf(first.messageId()));
        Exchange two = single(tap.sendsOf(second.messageId()));
        Exchange three = single(tap.sendsOf(third.messageId()));
        // each was sent only after the previous task's stream had ended with it completed
        assertThat(two.startedAt()).isAfterOrEqualTo(one.endedAt());
        assertThat(three.startedAt()).isAfterOrEqualTo(two.endedAt());
        assertThat(Duration.between(one.startedAt(), two.startedAt())).isGreaterThanOrEqualTo(Duration.ofMillis(SLOW_MS));
        String context = one.first("contextId").orElseThrow();
        assertThat(List.of(two, three)).allSatisfy(e -> assertThat(
                e.request().path("params").path("message").path("contextId").asText()).isEqualTo(context));
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aRepeatedMessageIdIsTheSameTurn(ProtocolVersion v) {
        String name = channel("slow", v);
        String suffix = v == ProtocolVersion.V1_0 ? "10" : "03";
        String threadKey = "repeat-thread-" + suffix;
        String replyKey = "repeat-reply-" + suffix;
        Sent first = chat.newThread(name, "once only", threadKey, Map.of());
        Sent again = chat.newThread(name, "once only", threadKey, Map.of());
        assertThat(again).isEqualTo(first);
        // the caller's messageId is a key: the message's id is the service's, derived from it (issue 22)
        String threadMessage = first.messageId();
        assertThat(threadMessage).startsWith("web-");

        String replyMessage = chat.send(first.threadId(), "a reply, once", replyKey, Map.of()).messageId();
        // the retried POST while the turn is queued, and again after it has run; and with the id it was answered
        assertThat(chat.send(first.threadId(), "a reply, once", replyKey, Map.of()).messageId()).isEqualTo(replyMessage);
        chat.awaitState(first.threadId(), replyMessage, "completed");
        assertThat(chat.send(first.threadId(), "a reply, once", replyKey, Map.of()).messageId()).isEqualTo(replyMessage);
        assertThat(chat.send(first.threadId(), "a reply, once", replyMessage, Map.of()).messageId()).isEqualTo(replyMessage);

        // the same messageId in another thread is that thread's message: not this turn, nor a second run of it
        Sent other = chat.newThread(channel("echo", v), "another thread");
        Sent elsewhere = chat.send(other.threadId(), "hijack", replyKey, Map.of());
        assertThat(elsewhere.messageId()).isNotEqualTo(replyMessage);
        chat.awaitFinal(elsewhere);

        // and it stays that way for longer than a second run would take
        Awaitility.await("no second run of a repeated message").during(Duration.ofMillis(SLOW_MS + 300))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> agents.get(name).recorder().messageIds().stream()
                        .filter(id -> id.equals(threadMessage) || id.equals(replyMessage)).count() == 2);
        List<Post> posts = chat.posts(first.threadId());
        assertThat(posts).extracting(Post::kind).containsExactlyInAnyOrder("user", "agent", "user", "agent");
        assertThat(posts).filteredOn(Post::isUser).extracting(Post::id).containsExactly(threadMessage, replyMessage);
        assertEcho(answerTo(posts, threadMessage), "once only");
        assertEcho(answerTo(posts, replyMessage), "a reply, once");
        assertThat(agents.get(name).recorder().messageIds()).containsOnlyOnce(threadMessage, replyMessage);
        assertThat(chat.posts(other.threadId())).filteredOn(Post::isUser).extracting(Post::id)
                .containsExactly(other.messageId(), elsewhere.messageId());
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void concurrentRetriesOfANewThreadOpenOneThread(ProtocolVersion v) throws Exception {
        String name = channel("echo", v);
        String messageId = "concurrent-new-" + (v == ProtocolVersion.V1_0 ? "10" : "03");
        var pool = Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(pool.submit(() -> chat.post("/api/chat/channels/" + name + "/threads",
                        ChatApi.body("sent four times at once", messageId), Map.of())));
            }
            List<JsonNode> answers = new ArrayList<>();
            for (var c : calls) {
                HttpResponse<String> r = c.get(20, TimeUnit.SECONDS);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
                answers.add(ChatApi.read(r.body()));
            }
            assertThat(answers).extracting(a -> a.path("threadId").asText()).containsOnly(answers.get(0).path("threadId").asText());
            assertThat(answers).extracting(a -> a.path("messageId").asText())
                    .containsOnly(answers.get(0).path("messageId").asText());
            String threadId = answers.get(0).path("threadId").asText();
            String opening = answers.get(0).path("messageId").asText();
            chat.awaitState(threadId, opening, "completed");
            assertThat(agents.get(name).recorder().messageIds()).containsOnlyOnce(opening);
            JsonNode threads = chat.get("/api/chat/channels/" + name + "/threads").path("threads");
            List<String> titled = new ArrayList<>();
            threads.forEach(t -> {
                if ("sent four times at once".equals(t.path("title").asText())) {
                    titled.add(t.path("threadId").asText());
                }
            });
            assertThat(titled).as("threads opened by the four POSTs").containsExactly(threadId);
        } finally {
            pool.shutdownNow();
        }
    }

    // ================= questions =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void theAgentsQuestionIsShownAndTheNextMessageAnswersIt(ProtocolVersion v) {
        String name = channel("ask", v);
        Sent first = chat.newThread(name, "please ask me something");
        List<Post> asked = chat.awaitState(first.threadId(), first.messageId(), "waiting_for_answer");
        assertThat(asked).filteredOn(p -> "question".equals(p.kind())).extracting(Post::text).containsExactly(QUESTION);

        Sent answer = chat.send(first.threadId(), "Ada");
        List<Post> posts = chat.awaitState(first.threadId(), first.messageId(), "completed");
        assertThat(posts).filteredOn(p -> "agent".equals(p.kind())).hasSize(1);
        assertEcho(answerTo(posts, first.messageId()), "Ada");
        assertThat(posts).filteredOn(Post::isUser).extracting(Post::id).containsExactly(first.messageId(), answer.messageId());
        assertThat(chat.awaitState(first.threadId(), answer.messageId(), "completed"))
                .as("the answer's own post shows the turn it answered as completed").isNotEmpty();

        Exchange asking = single(taps.get(name).sendsOf(first.messageId()));
        String pausedTask = asking.first("taskId").orElseGet(() -> asking.first("id").orElseThrow());
        String context = asking.first("contextId").orElseThrow();
        List<RecordedRequest> sends = agents.get(name).recorder().rpcRequests().stream()
                .filter(RecordedRequest::isSend).toList();
        assertThat(sends).extracting(RecordedRequest::messageId).containsExactly(first.messageId(), answer.messageId());
        RecordedRequest sentAnswer = sends.get(1);
        assertThat(sentAnswer.taskId()).as("the answer goes to the paused task").isEqualTo(pausedTask);
        assertThat(sentAnswer.contextId()).isEqualTo(context);
        assertThat(sentAnswer.messageId()).isNotEqualTo(first.messageId());
        assertThat(sentAnswer.text()).isEqualTo(ADA_PREFIX + "Ada");
        assertOneTextPart(sentAnswer);
        assertWireVersion(sentAnswer, v);
    }

    // ================= helpers =================

    /** The text of the agent's answer to the turn of {@code messageId}. */
    static String answerTo(List<Post> posts, String messageId) {
        List<Post> answers = posts.stream().filter(p -> "agent".equals(p.kind()) && messageId.equals(p.turnMessageId()))
                .toList();
        assertThat(answers).as("agent answers to %s", messageId).hasSize(1);
        return answers.get(0).text();
    }

    /** The testkit echoes what it received: the text, with the bridge's prefix line unless it strips that. */
    static void assertEcho(String answer, String text) {
        assertThat(answer).isIn(ADA_PREFIX + text, text);
    }

    private static <T> T single(List<T> list) {
        assertThat(list).hasSize(1);
        return list.get(0);
    }

    static void assertOneTextPart(RecordedRequest send) {
        JsonNode parts = ChatApi.read(send.body()).path("params").path("message").path("parts");
        assertThat(parts).hasSize(1);
        assertThat(parts.get(0).path("text").isTextual()).isTrue();
    }

    /** 1.0: SendStreamingMessage, {@code A2A-Version: 1.0}, ProtoJSON; 0.3: message/stream, no header, kinds. */
    static void assertWireVersion(RecordedRequest send, ProtocolVersion v) {
        JsonNode message = ChatApi.read(send.body()).path("params").path("message");
        if (v == ProtocolVersion.V1_0) {
            assertThat(send.rpcMethod()).isEqualTo("SendStreamingMessage");
            assertThat(send.headers().getAll("A2A-Version")).containsExactly("1.0");
            assertThat(message.path("role").asText()).isEqualTo("ROLE_USER");
            assertThat(message.has("kind")).isFalse();
        } else {
            assertThat(send.rpcMethod()).isEqualTo("message/stream");
            assertThat(send.header("A2A-Version")).isNull();
            assertThat(message.path("kind").asText()).isEqualTo("message");
            assertThat(message.path("role").asText()).isEqualTo("user");
            assertThat(message.path("parts").get(0).path("kind").asText()).isEqualTo("text");
        }
    }

    /** Exactly one identity header, the binding's; the backend's static header; trace context. */
    static void assertIdentity(RecordedRequest r, String header, String value) {
        String other = header.equals("Authorization") ? "X-User-Id" : "Authorization";
        assertThat(r.headers().getAll(header)).as("%s on %s %s", header, r.httpMethod(), r.rpcMethod())
                .containsExactly(value);
        assertThat(r.headers().getAll(other)).as("%s on %s %s", other, r.httpMethod(), r.rpcMethod()).isEmpty();
        assertThat(r.headers().getAll("X-Team")).containsExactly("sre");
        assertThat(Objects.requireNonNullElse(r.header("traceparent"), "")).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
    }
}
