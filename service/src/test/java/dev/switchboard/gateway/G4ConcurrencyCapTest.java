package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.AwaitDefaults;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G4: per-agent concurrency cap ({@code maxConcurrency}, default 100), sync calls and open streams
 * together. Over the cap the call is rejected at once, never queued: -32603 {@code server busy: <id>
 * has <n> calls in flight}, {@code data} saying it is retryable, and {@code Retry-After: 1}. The slot
 * is released on every path a call can end on.
 */
@ServerTest
class G4ConcurrencyCapTest {

    private static final String EVENT = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":1}}\n\n";

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent held;
    static RawAgent mixed;
    static TestAgent solo;

    @BeforeAll
    static void start() throws IOException {
        h = new Harness(dir);
        held = h.raw(RawAgent.silent());
        // streams are opened with one event at once; anything else is held until the test answers it
        mixed = h.raw((req, body, ex) -> {
            if (body.toString().contains("message/stream")) {
                RawAgent.openStream().respond(req, body, ex);
                req.response().write(EVENT);
            }
        });
        solo = h.agent(TestAgentOptions.echo("solo"));
        h.backend("capped", held.url(), Harness.limits(2, 300, 3600, AgentLimits.DEFAULTS.maxResponseBytes(), 300))
                .backend("mixed", mixed.url(), Harness.limits(2, 300, 3600, AgentLimits.DEFAULTS.maxResponseBytes(), 300))
                .backend("solo", solo.url(), Harness.limits(1, 300, 3600, 4096, 1))
                .backend("solo-gone", "http://127.0.0.1:" + freePort() + "/", Harness.limits(1, 300, 3600, 4096, 1))
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void g4_theDefaultCapIs100() {
        assertThat(AgentLimits.DEFAULTS.maxConcurrency()).isEqualTo(100);
    }

    @Test
    void g4_overTheCapTheCallIsRejectedAtOnceAndNeverQueued() throws Exception {
        held.clear();
        TestHttp http = h.http();
        CompletableFuture<Reply> first = http.postAsync("/a2a/capped", Rpc.send(1, "first"));
        CompletableFuture<Reply> second = http.postAsync("/a2a/capped", Rpc.send(2, "second"));
        RawAgent.Exchange a = held.next();
        RawAgent.Exchange b = held.next();
        await().until(() -> h.inFlight("capped") == 2);

        Reply rejected = http.rpc("capped", Rpc.send(3, "third"));

        assertThat(rejected.errorCode()).isEqualTo(-32603);
        assertThat(rejected.errorMessage()).isEqualTo("server busy: capped has 2 calls in flight");
        assertThat(rejected.errorData().path("retryable").asBoolean()).isTrue();
        assertThat(rejected.errorData().path("executed").asBoolean(true)).isFalse();
        assertThat(rejected.header("Retry-After")).isEqualTo("1");
        assertThat(rejected.json().path("id").asInt()).isEqualTo(3);
        assertThat(rejected.status()).as("README: busy is HTTP 503").isEqualTo(503);
        // answered while both calls in flight were still waiting: not queued behind them
        assertThat(first).isNotDone();
        assertThat(second).isNotDone();

        a.reply("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
        b.reply("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
        assertThat(first.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS).json().has("result")).isTrue();
        assertThat(second.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS).json().has("result")).isTrue();
        await().until(() -> h.inFlight("capped") == 0);
        // the rejected call never reached the agent, not even once slots were free again
        assertThat(held.exchanges()).hasSize(2);

        CompletableFuture<Reply> fourth = http.postAsync("/a2a/capped", Rpc.send(4, "fourth"));
        held.next().reply("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}");
        assertThat(fourth.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS).json().has("result")).isTrue();
    }

    @Test
    void g4_syncCallsAndOpenStreamsShareTheCap() throws Exception {
        mixed.clear();
        TestHttp http = h.http();
        SseCall stream = http.stream("/a2a/mixed", Rpc.stream(1, "a stream"));
        await().until(() -> stream.dataFrames().size() == 1);
        CompletableFuture<Reply> sync = http.postAsync("/a2a/mixed", Rpc.send(2, "a sync call"));
        await().until(() -> mixed.exchanges().size() == 2);

        Reply rejectedStream = http.rpc("mixed", Rpc.stream(3, "one stream too many"));
        assertThat(rejectedStream.errorMessage()).isEqualTo("server busy: mixed has 2 calls in flight");
        assertThat(rejectedStream.header("Content-Type")).startsWith("application/json");
        assertThat(rejectedStream.header("Retry-After")).isEqualTo("1");
        Reply rejectedSync = http.rpc("mixed", Rpc.send(4, "one call too many"));
        assertThat(rejectedSync.errorMessage()).isEqualTo("server busy: mixed has 2 calls in flight");

        stream.disconnect();
        await().until(() -> h.inFlight("mixed") == 1);
        CompletableFuture<Reply> admitted = http.postAsync("/a2a/mixed", Rpc.send(5, "now there is room"));
        await().until(() -> mixed.exchanges().size() == 3);
        for (RawAgent.Exchange e : mixed.exchanges()) {
            e.reply("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}");
        }
        assertThat(sync.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS).json().has("result")).isTrue();
        assertThat(admitted.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS).json().has("result")).isTrue();
        await().until(() -> h.inFlight("mixed") == 0);
    }

    @Test
    void g4_theSlotIsReleasedOnEveryPath() {
        TestHttp http = h.http();
        // cap 1: every call below is only admitted if the one before gave its slot back
        admittedAndReleased(http.rpc("solo", Rpc.send(1, "ok")), "solo");
        admittedAndReleased(http.rpc("solo", Rpc.send(2, "/error -32004 agent says busy")), "solo");
        admittedAndReleased(http.rpc("solo", Rpc.send(3, "/http 500")), "solo");
        admittedAndReleased(http.rpc("solo", Rpc.send(4, "/http 503")), "solo");
        admittedAndReleased(http.rpc("solo", Rpc.send(5, "/http 504")), "solo");
        admittedAndReleased(http.rpc("solo", Rpc.send(6, "x".repeat(5000))), "solo"); // response too large
        admittedAndReleased(http.rpc("solo", Rpc.sendWithTimeout(7, "/silence", 1)), "solo"); // timeout
        admittedAndReleased(http.rpc("solo", Rpc.send03(null, "message/send", "notification").toString()), "solo");

        SseCall completed = http.stream("/a2a/solo", Rpc.stream(8, "/stream 2 10"));
        completed.awaitEnd();
        assertThat(completed.dataFrames()).isNotEmpty();
        await().until(() -> h.inFlight("solo") == 0);

        SseCall idle = http.stream("/a2a/solo", Rpc.stream(9, "/slow 10000")); // idle timeout 1 s
        idle.awaitEnd();
        await().until(() -> h.inFlight("solo") == 0);

        SseCall dropped = http.stream("/a2a/solo", Rpc.stream(10, "/stream 50 200"));
        await().until(() -> !dropped.dataFrames().isEmpty());
        dropped.disconnect();
        await().until(() -> h.inFlight("solo") == 0);

        admittedAndReleased(http.rpc("solo", Rpc.send(11, "still admitted")), "solo");
        admittedAndReleased(http.rpc("solo-gone", Rpc.send(12, "refused")), "solo-gone");
        admittedAndReleased(http.rpc("solo-gone", Rpc.send(13, "refused again")), "solo-gone");
    }

    @Test
    void g4_aCallerThatWaitsForEachReplyIsNeverTurnedAway() {
        // cap 1, one call at a time, each on a new connection (so on another event loop than the last): the slot
        // must be free by the time the caller has read the reply, not some moments later (CI once saw "server busy")
        try (TestHttp fresh = TestHttp.newConnectionPerCall(h.vertx, h.base())) {
            for (int i = 0; i < 200; i++) {
                String text = i % 3 == 0 ? "/http 500" : i % 3 == 1 ? "/error -32004 agent says busy" : "ok " + i;
                Reply reply = fresh.rpc("solo", Rpc.send(i, text));
                if (reply.json().has("error")) {
                    assertThat(reply.errorMessage()).as("call %d: %s", i, reply).doesNotStartWith("server busy");
                }
            }
        }
    }

    private static void admittedAndReleased(Reply reply, String agent) {
        if (reply.status() != 204 && reply.json().has("error")) {
            assertThat(reply.errorMessage()).as(reply.toString()).doesNotStartWith("server busy");
        }
        await().until(() -> h.inFlight(agent) == 0);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
