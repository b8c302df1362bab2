package dev.switchboard.bridge.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.store.TestPostgres;
import dev.switchboard.testing.PostgresTest;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, points 3 and 4: three Switchboard replicas in this JVM on one PostgreSQL database, an A2A 1.0 testkit agent
 * behind them. A chat session is driven by the one replica holding its lease: a message reaching another replica is
 * carried once, through the owner; an owner that dies (simulated: {@code dieForTest} stops its renewals and lanes and
 * lets no lease go) loses its sessions after {@code leaseDuration}, and another replica finishes the turn without
 * sending it again; a web chat watcher on one replica sees what another replica writes.
 */
@ServerTest
@PostgresTest
class SessionLeasesTest {

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    static Vertx vertx;
    static TestAgent echo;
    static TestAgent slow;
    static TestAgent stream;

    final List<SwitchboardApp> apps = new ArrayList<>();
    final List<ChatApi> chats = new ArrayList<>();

    @BeforeAll
    static void agents() {
        vertx = Vertx.vertx();
        echo = TestAgent.start(vertx, TestAgentOptions.echo("echo").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/echo"), 0).await();
        slow = TestAgent.start(vertx, TestAgentOptions.echo("slow").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/slow 5000"), 0).await();
        stream = TestAgent.start(vertx, TestAgentOptions.echo("stream").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/stream 8 600"), 0).await();
    }

    @AfterAll
    static void stopAgents() {
        for (TestAgent a : new TestAgent[] {echo, slow, stream}) {
            if (a != null) {
                a.close().await();
            }
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }

    @BeforeEach
    void replicas() {
        String store = TestPostgres.get().newDatabase();
        for (int i = 0; i < 3; i++) {
            SwitchboardApp app = SwitchboardFixture.builder().vertx(vertx)
                    .yaml(ConfigYaml.serverOn(store, "bridge: {leaseDuration: " + LEASE.toMillis() + "ms, maxQueuedTurns: 1}")
                    .webBackend("echo", echo.url(), null)
                    .webBackend("slow", slow.url(), null)
                    .webBackend("stream", stream.url(), null)).start().app();
            apps.add(app);
            chats.add(new ChatApi(app.baseUrl()));
        }
    }

    @AfterEach
    void stopReplicas() {
        apps.forEach(a -> a.close().await());
    }

    private boolean owns(int replica, String threadId) {
        return apps.get(replica).bridge().driver().leases().holds(threadId);
    }

    private static long sendsOf(TestAgent agent, String messageId) {
        return agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend)
                .filter(r -> messageId.equals(r.messageId())).count();
    }

    @Test
    void aMessageReachingAnotherReplicaIsCarriedOnceByTheOwner() {
        Sent first = chats.get(0).newThread("echo", "hello from replica 0");
        chats.get(0).awaitState(first, "completed");
        assertThat(owns(0, first.threadId())).as("the replica that took the thread drives it").isTrue();

        // replica 1 does not drive the thread: it hands the message to replica 0 through the store, and answers 201
        // once the owner took it
        Sent second = chats.get(1).send(first.threadId(), "hello from replica 1", "m-replica-1", Map.of());
        assertThat(owns(1, first.threadId())).isFalse();
        assertThat(chats.get(1).userPost(first.threadId(), second.messageId())).isNotNull();
        // B7: the same messageId again, on the third replica, is the same message
        assertThat(chats.get(2).send(first.threadId(), "hello from replica 1", "m-replica-1", Map.of())).isEqualTo(second);
        Post done = chats.get(2).awaitFinal(second);
        assertThat(done.state()).isEqualTo("completed");
        assertThat(chats.get(2).answer(first.threadId(), second.messageId())).contains("hello from replica 1");
        assertThat(owns(0, first.threadId())).as("the owner carried it").isTrue();
        assertThat(owns(1, first.threadId()) || owns(2, first.threadId())).isFalse();
        assertThat(sendsOf(echo, second.messageId())).as("sent to the agent once").isEqualTo(1);
        assertThat(chats.get(0).posts(first.threadId())).filteredOn(Post::isUser).extracting(Post::id)
                .containsExactly(first.messageId(), second.messageId());
    }

    @Test
    void aDeadOwnersTurnIsFinishedByAnotherReplicaAndSentOnce() {
        Sent slowTurn = chats.get(0).newThread("slow", "slow work");
        Sent streamTurn = chats.get(0).newThread("stream", "one two three four five six seven eight");
        chats.get(0).awaitState(slowTurn, "running");
        chats.get(0).awaitPosts(streamTurn.threadId(), "the first chunks", posts -> posts.stream()
                .anyMatch(p -> "agent".equals(p.kind()) && p.text() != null && !p.text().isBlank()));
        assertThat(owns(0, slowTurn.threadId()) && owns(0, streamTurn.threadId())).isTrue();

        long died = System.nanoTime();
        apps.get(0).bridge().driver().dieForTest();

        for (Sent s : List.of(slowTurn, streamTurn)) {
            Awaitility.await("another replica takes " + s.threadId() + " over").atMost(LEASE.plus(SETTLE))
                    .until(() -> owns(1, s.threadId()) || owns(2, s.threadId()));
            Post done = chats.get(1).awaitFinal(s);
            assertThat(done.state()).as("the turn ends with one outcome").isEqualTo("completed");
            assertThat(chats.get(2).posts(s.threadId())).filteredOn(p -> "agent".equals(p.kind()))
                    .as("one answer").hasSize(1);
        }
        System.err.println("takeover: both turns finished " + (System.nanoTime() - died) / 1_000_000 + " ms after death");
        assertThat(sendsOf(slow, slowTurn.messageId())).as("the slow turn was sent to the agent once").isEqualTo(1);
        assertThat(sendsOf(stream, streamTurn.messageId())).as("the streamed turn was sent once").isEqualTo(1);
        assertThat(chats.get(1).answer(streamTurn.threadId(), streamTurn.messageId()))
                .contains("one two three four five six seven eight");
    }

    @Test
    void messagesPostedWhileTheOwnerIsDeadAreKeptAndTakenByTheNextOwner() {
        Sent asking = chats.get(0).newThread("slow", "/ask Who goes there?");
        Sent working = chats.get(0).newThread("slow", "slow work");
        chats.get(0).awaitState(asking.threadId(), asking.messageId(), "waiting_for_answer");
        chats.get(0).awaitState(working, "running");
        apps.get(0).bridge().driver().dieForTest();

        // posted at once, while the dead owner's leases still run: kept in the store's inbox, answered 201 once the
        // replica that takes the thread over accepted them
        Sent answer = chats.get(1).send(asking.threadId(), "A friend.", "m-answer", Map.of());
        Sent queued = chats.get(2).send(working.threadId(), "queued behind the slow work", "m-queued", Map.of());

        for (Sent s : List.of(asking, answer, working, queued)) {
            assertThat(chats.get(1).awaitFinal(s).state()).as(s.messageId()).isEqualTo("completed");
        }
        assertThat(chats.get(2).posts(asking.threadId())).filteredOn(Post::isUser).extracting(Post::id)
                .containsExactly(asking.messageId(), answer.messageId());
        assertThat(chats.get(2).posts(working.threadId())).filteredOn(Post::isUser).extracting(Post::id)
                .containsExactly(working.messageId(), queued.messageId());
        for (String id : List.of(asking.messageId(), answer.messageId(), working.messageId(), queued.messageId())) {
            assertThat(sendsOf(slow, id)).as("%s sent to the agent once", id).isEqualTo(1);
        }
    }

    @Test
    void theOwnersRefusalReachesTheReplicaTheMessageWasPostedTo() throws Exception {
        Sent working = chats.get(0).newThread("slow", "slow work");
        chats.get(0).awaitState(working, "running");
        Sent waits = chats.get(1).send(working.threadId(), "the one turn that may wait", "m-waits", Map.of());
        HttpResponse<String> refused = chats.get(2).trySend("/api/chat/threads/" + working.threadId() + "/messages",
                "one too many", "m-too-many");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
        assertThat(owns(0, working.threadId())).isTrue();
        assertThat(chats.get(0).awaitFinal(waits).state()).isEqualTo("completed");
        assertThat(chats.get(0).posts(working.threadId())).filteredOn(Post::isUser).extracting(Post::id)
                .containsExactly(working.messageId(), waits.messageId());
        assertThat(slow.recorder().rpcRequests()).filteredOn(RecordedRequest::isSend)
                .noneMatch(r -> r.text() != null && r.text().contains("one too many"));
    }

    @Test
    void aWatcherOnOneReplicaSeesWhatAnotherReplicaWrites() throws Exception {
        Sent first = chats.get(0).newThread("stream", "alpha beta gamma");
        chats.get(0).awaitState(first, "completed");
        assertThat(owns(0, first.threadId())).isTrue();

        List<String> seen = new CopyOnWriteArrayList<>();
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<java.util.stream.Stream<String>> events = http.sendAsync(HttpRequest.newBuilder(
                        URI.create(chats.get(1).base() + "/api/chat/threads/" + first.threadId() + "/events")).build(),
                HttpResponse.BodyHandlers.ofLines()).get(30, TimeUnit.SECONDS);
        var reader = Executors.newSingleThreadExecutor();
        reader.submit(() -> events.body().filter(l -> l.startsWith("data:")).map(l -> ChatApi.read(l.substring(5)))
                .filter(p -> "agent".equals(p.path("kind").asText())).forEach(p -> seen.add(p.path("text").asText())));
        try {
            Awaitility.await("the watcher is connected").atMost(SETTLE)
                    .until(() -> apps.get(1).webChat().events().listenerCount() > 0);
            // written by replica 0 (the owner), watched on replica 1
            Sent second = chats.get(0).send(first.threadId(), "delta epsilon zeta eta theta");
            chats.get(0).awaitState(first.threadId(), second.messageId(), "completed");
            String whole = chats.get(0).answer(first.threadId(), second.messageId());
            Awaitility.await("replica 1's watcher sees replica 0's answer").atMost(SETTLE)
                    .until(() -> seen.contains(whole));
            assertThat(seen).as("chunk by chunk").anyMatch(t -> t.length() < whole.length() && whole.startsWith(t));
        } finally {
            events.body().close();
            reader.shutdownNow();
        }
    }
}
