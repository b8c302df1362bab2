package dev.switchboard.bridge.replicas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.ServiceProcess;
import dev.switchboard.bridge.support.Teardown;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.store.TestPostgres;
import dev.switchboard.testing.PostgresTest;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * Issue 12, point 7: three replicas of the packaged service ({@code switchboard-app.jar serve}), each its own process on
 * its own port, on one PostgreSQL database ({@link TestPostgres}; the superuser connects without a password), with
 * {@code leaseDuration: 3s}, and an A2A 1.0 testkit agent in this JVM. The replica that owns a session (its id in
 * {@code bridge_lease.owner}, which each replica logs at start) is killed with SIGKILL mid-turn, mid-stream, and with
 * an open question (answered on another replica after the kill): every turn ends with exactly one outcome, seen through
 * the web chat API of every live replica, and the agent receives each messageId in exactly one send (GetTask and
 * SubscribeToTask after the takeover are reads).
 *
 * <p>Runs in failsafe's integration-test phase, after {@code package} built the jar.
 */
@ServerTest
@ProcessTest
@PostgresTest
class ReplicaFailoverIT {

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final Pattern REPLICA_ID = Pattern.compile("bridge: replica (\\S+) drives chat sessions");
    private static final String STREAMED = "one two three four five six seven eight nine ten";

    @TempDir
    Path dir;

    Vertx vertx;
    TestAgent agent;
    String store;
    final List<ServiceProcess> replicas = new ArrayList<>();
    final List<ChatApi> chats = new ArrayList<>();
    final List<String> ids = new ArrayList<>();
    final List<Boolean> alive = new ArrayList<>();
    final Map<String, Long> takeovers = new LinkedHashMap<>();
    final Map<String, Long> leaseTaken = new LinkedHashMap<>();

    @BeforeEach
    void start() throws Exception {
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null,
                "ReplicaFailoverIT runs in failsafe's integration-test phase, which names the packaged jar");
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("slow").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/slow 4000"), 0).await();
        store = TestPostgres.get().newDatabase();
        for (int i = 0; i < 3; i++) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort(); // the same port across restarts
            }
            Path config = dir.resolve("replica-" + i + ".yaml");
            Files.writeString(config, ConfigYaml.serverOn(store, "listen: 127.0.0.1:" + port + "\nbridge: {leaseDuration: "
                            + LEASE.toMillis() + "ms}")
                    .webAgent("slow", agent.url(), false)
                    .yaml());
            replicas.add(new ServiceProcess(config, Path.of("target", "replica-failover", "replica-" + i)));
            chats.add(null);
            ids.add(null);
            alive.add(false);
        }
        for (int i = 0; i < 3; i++) {
            startReplica(i);
        }
    }

    @AfterEach
    void stop() throws Exception {
        Teardown.stop(replicas, agent, vertx);
        if (!takeovers.isEmpty()) {
            System.out.println("replica failover (leaseDuration " + LEASE.toMillis() + " ms), ms from SIGKILL to the "
                    + "lease taken by another replica: " + leaseTaken + "; to the outcome seen on a live replica: "
                    + takeovers);
        }
    }

    @Test
    void theOwnersTurnsEndOnceOnAnotherReplicaAfterSigkill() throws Exception {
        // mid-turn: a slow task runs on the agent as its owner dies
        Sent slow = chats.get(0).newThread("slow", "slow work");
        chats.get(0).awaitState(slow, "running");
        int owner = killOwner(slow.threadId());
        long killed = System.nanoTime();
        awaitTakeover("mid-turn", slow.threadId(), owner, killed);
        assertOneOutcome("mid-turn", slow.threadId(), List.of(slow.messageId()), killed);
        startReplica(owner);

        // mid-stream: part of the answer is shown when its owner dies; the new owner follows the task again
        Sent streaming = chats.get(1).newThread("slow", "/stream 10 700\n" + STREAMED);
        chats.get(1).awaitPosts(streaming.threadId(), "part of the streamed answer shown", SETTLE, p -> p.stream()
                .anyMatch(x -> "agent".equals(x.kind()) && x.text() != null && !x.text().isEmpty()
                        && x.text().length() < STREAMED.length()));
        owner = killOwner(streaming.threadId());
        killed = System.nanoTime();
        awaitTakeover("mid-stream", streaming.threadId(), owner, killed);
        assertOneOutcome("mid-stream", streaming.threadId(), List.of(streaming.messageId()), killed);
        startReplica(owner);

        // an open question: its owner dies, the answer is posted to another replica at once (kept in the inbox while
        // the dead owner's lease runs out) and goes to the task that asked, once
        Sent asking = chats.get(2).newThread("slow", "/ask Who goes there?");
        chats.get(2).awaitState(asking, "waiting_for_answer");
        owner = killOwner(asking.threadId());
        killed = System.nanoTime();
        ChatApi other = chats.get((owner + 1) % 3);
        Sent answer = other.send(asking.threadId(), "A friend.", "m-answer-after-kill", Map.of());
        // the 201 comes once the new owner accepted the answer: the lease was taken by then
        leaseTaken.put("open question", (System.nanoTime() - killed) / 1_000_000);
        assertOneOutcome("open question", asking.threadId(), List.of(asking.messageId(), answer.messageId()), killed);
        assertThat(agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend)
                .filter(r -> answer.messageId().equals(r.messageId())).findFirst().orElseThrow().taskId())
                .as("the answer goes to the task that asked").isNotNull();
        startReplica(owner);

        Map<String, Long> methods = agent.recorder().rpcMethods().stream()
                .collect(Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()));
        System.out.println("replica failover: the agent received " + methods);
        assertThat(methods).as("the new owners read and follow the tasks").containsKeys("GetTask");
    }

    // ================= the replicas =================

    private void startReplica(int i) throws IOException {
        chats.set(i, new ChatApi(replicas.get(i).start()));
        Matcher m = REPLICA_ID.matcher(replicas.get(i).errors());
        assertThat(m.find()).as("replica %d logs its id", i).isTrue();
        ids.set(i, m.group(1));
        alive.set(i, true);
    }

    /** Finds the thread's owner in {@code bridge_lease} and kills it with SIGKILL; returns its index. */
    private int killOwner(String threadId) throws Exception {
        String ownerId = leaseOwner(threadId);
        int owner = ids.indexOf(ownerId);
        assertThat(owner).as("the owner %s of %s is one of the replicas %s", ownerId, threadId, ids).isNotNegative();
        replicas.get(owner).kill();
        alive.set(owner, false);
        return owner;
    }

    /** Waits until another replica holds the thread's lease; records how long after the kill. */
    private void awaitTakeover(String scenario, String threadId, int dead, long killed) {
        String deadId = ids.get(dead);
        Awaitility.await(scenario + ": another replica takes the lease of " + threadId).atMost(SETTLE)
                .pollInterval(Duration.ofMillis(50)).until(() -> !deadId.equals(leaseOwner(threadId)));
        leaseTaken.put(scenario, (System.nanoTime() - killed) / 1_000_000);
    }

    private String leaseOwner(String threadId) throws SQLException {
        String jdbc = "jdbc:" + store;
        try (Connection c = DriverManager.getConnection(jdbc);
                PreparedStatement s = c.prepareStatement("SELECT owner FROM bridge_lease WHERE thread_id = ?")) {
            s.setString(1, threadId);
            try (ResultSet r = s.executeQuery()) {
                assertThat(r.next()).as("a lease on %s", threadId).isTrue();
                return r.getString(1);
            }
        }
    }

    // ================= what must hold =================

    /**
     * The turn (its first message, and an answer to its question when there is one) ends completed on a live replica,
     * with exactly one answer, echoing its text; every live replica shows the same; each messageId was sent once.
     */
    private void assertOneOutcome(String scenario, String threadId, List<String> messageIds, long killed) {
        int live = alive.indexOf(true);
        List<Post> posts = chats.get(live).awaitPosts(threadId, scenario + ": the turn ends on replica " + live, SETTLE,
                p -> messageIds.stream().allMatch(id -> p.stream().anyMatch(
                        x -> x.isUser() && x.id().equals(id) && ChatApi.FINAL.contains(x.state()))));
        takeovers.put(scenario, (System.nanoTime() - killed) / 1_000_000);
        String turn = messageIds.get(0);
        for (int i = 0; i < 3; i++) {
            if (!alive.get(i)) {
                continue;
            }
            List<Post> seen = i == live ? posts : chats.get(i).posts(threadId);
            assertThat(seen).filteredOn(Post::isUser).extracting(Post::id).as("%s on replica %d", scenario, i)
                    .containsExactlyElementsOf(messageIds);
            assertThat(seen).filteredOn(Post::isUser).extracting(Post::state).as("%s on replica %d", scenario, i)
                    .containsOnly("completed");
            List<Post> answers = seen.stream().filter(p -> "agent".equals(p.kind()) && turn.equals(p.turnMessageId()))
                    .toList();
            assertThat(answers).as("%s: one answer on replica %d", scenario, i).hasSize(1);
            String echoed = seen.stream().filter(p -> p.isUser() && turn.equals(p.turnMessageId())).reduce((a, b) -> b)
                    .map(Post::text).orElseThrow();
            assertThat(answers.get(0).text()).as("%s: the answer", scenario).isEqualTo(echoOf(echoed));
            assertThat(seen).as("%s: nothing but the question besides", scenario)
                    .filteredOn(p -> !p.isUser() && !"agent".equals(p.kind()))
                    .allMatch(p -> "question".equals(p.kind()));
        }
        for (String id : messageIds) {
            long sends = agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend)
                    .filter(r -> id.equals(r.messageId())).count();
            assertThat(sends).as("%s: sends of %s to the agent", scenario, id).isEqualTo(1);
        }
    }

    /** What the testkit echoes: the text below a directive line, else the whole text. */
    private static String echoOf(String text) {
        int newline = text.indexOf('\n');
        return text.startsWith("/") && newline > 0 ? text.substring(newline + 1) : text;
    }
}
