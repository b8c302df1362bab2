package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * KubeMQ's two streaming modes — {@code POST /a2a/{id}} with {@code message/stream}, and {@code GET
 * /a2a/{id}/stream} with no body — under the same rules, each rule run in both modes: events relayed as the
 * agent sends them, keepalive comments on a quiet stream, the idle timeout, a caller's disconnect closing the
 * agent's connection and freeing the slot, one concurrency cap for both, and errors before the first event
 * answered as plain JSON-RPC. The rules are G8's and G4's (see {@link G8StreamingTest}, {@link G4ConcurrencyCapTest}).
 */
@ServerTest
class StreamModesTest {

    private static final long MAX = AgentLimits.DEFAULTS.maxResponseBytes();

    /** How a caller opens a stream to an agent in each mode. */
    enum Mode {
        POST_MESSAGE_STREAM((http, agent) -> http.stream("/a2a/" + agent, Rpc.stream(1, "stream to me"))),
        GET_STREAM((http, agent) -> http.streamGet("/a2a/" + agent + "/stream"));

        private final BiFunction<TestHttp, String, SseCall> open;

        Mode(BiFunction<TestHttp, String, SseCall> open) {
            this.open = open;
        }

        SseCall open(String agent) {
            return open.apply(h.http(), agent);
        }

        /** A call answered as a whole (an error before any event). */
        Reply call(String agent) {
            SseCall c = open(agent);
            c.awaitEnd();
            return new Reply(c.status(), c.response().headers(), io.vertx.core.buffer.Buffer.buffer(c.raw()));
        }
    }

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent manual;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        manual = h.raw(RawAgent.openStream());
        h.keepaliveInterval(Duration.ofMillis(300))
                .backend("manual", manual.url(), Harness.limits(100, 300, 3600, MAX, 300))
                .backend("manual-idle", manual.url(), Harness.limits(100, 300, 3600, MAX, 1))
                .backend("manual-capped", manual.url(), Harness.limits(2, 300, 3600, MAX, 300))
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static String event(int n) {
        return "event: task.status\ndata: {\"type\":\"status_update\",\"payload\":{\"progress\":" + n + "}}\n\n";
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void eachEventIsRelayedAsSoonAsTheAgentSendsIt(Mode mode) {
        manual.clear();
        SseCall call = mode.open("manual");
        RawAgent.Exchange upstream = manual.next();

        upstream.write(event(1));
        await().until(() -> call.dataFrames().size() == 1);
        assertThat(call.isEnded()).isFalse();
        assertThat(call.status()).isEqualTo(200);
        assertThat(call.header("Content-Type")).startsWith("text/event-stream");
        assertThat(call.header("Cache-Control")).isEqualTo("no-cache");

        upstream.write(event(2));
        await().until(() -> call.dataFrames().size() == 2);
        assertThat(call.isEnded()).isFalse();

        upstream.write(event(3));
        upstream.end();
        call.awaitEnd();
        assertThat(call.endedNormally()).isTrue();
        assertThat(call.dataFrames()).containsExactly(event(1), event(2), event(3));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aQuietStreamGetsKeepaliveComments(Mode mode) {
        manual.clear();
        SseCall call = mode.open("manual");
        RawAgent.Exchange upstream = manual.next();
        upstream.write(event(1));

        await().until(() -> call.keepalives() >= 2);
        assertThat(call.isEnded()).isFalse();
        assertThat(call.frames()).filteredOn(f -> f.startsWith(":")).allSatisfy(f -> assertThat(f).isEqualTo(": keepalive\n\n"));

        upstream.write(event(2));
        upstream.end();
        call.awaitEnd();
        assertThat(call.dataFrames()).containsExactly(event(1), event(2));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anIdleStreamIsClosedAndItsUpstreamToo(Mode mode) {
        manual.clear();
        SseCall call = mode.open("manual-idle");
        RawAgent.Exchange upstream = manual.next();
        upstream.write(event(1));

        call.awaitEnd(); // idle timeout 1 s; keepalives (300 ms) do not count as agent events
        assertThat(call.dataFrames()).containsExactly(event(1));
        assertThat(call.keepalives()).isGreaterThanOrEqualTo(1);
        await().untilAsserted(() -> assertThat(upstream.connectionClosed()).isTrue());
        await().until(() -> h.inFlight("manual-idle") == 0 && h.openStreams("manual-idle") == 0);
        assertThat(h.metrics().sum("switchboard_gateway_requests_total", "agent", "manual-idle",
                "method", "message/stream", "outcome", "idle_timeout")).isGreaterThanOrEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCallerDisconnectClosesTheUpstreamAndFreesTheSlot(Mode mode) {
        manual.clear();
        SseCall call = mode.open("manual");
        RawAgent.Exchange upstream = manual.next();
        upstream.write(event(1));
        await().until(() -> call.dataFrames().size() == 1);
        assertThat(h.inFlight("manual")).isEqualTo(1);
        assertThat(h.openStreams("manual")).isEqualTo(1);

        call.disconnect();

        await().pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            assertThat(upstream.connectionClosed()).as("agent-side connection closed").isTrue();
            assertThat(h.inFlight("manual")).isZero();
            assertThat(h.openStreams("manual")).isZero();
        });
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void bothModesShareOneCapAndOverItTheCallIsRefusedAtOnce(Mode mode) {
        manual.clear();
        // one stream in each mode fills the cap of 2
        SseCall post = Mode.POST_MESSAGE_STREAM.open("manual-capped");
        SseCall get = Mode.GET_STREAM.open("manual-capped");
        RawAgent.Exchange a = manual.next();
        RawAgent.Exchange b = manual.next();
        a.write(event(1));
        b.write(event(1));
        await().until(() -> post.dataFrames().size() == 1 && get.dataFrames().size() == 1);

        Reply rejected = mode.call("manual-capped");
        assertThat(rejected.status()).isEqualTo(503);
        assertThat(rejected.header("Retry-After")).isEqualTo("1");
        assertThat(rejected.header("Content-Type")).startsWith("application/json");
        assertThat(rejected.errorCode()).isEqualTo(-32603);
        assertThat(rejected.errorMessage()).isEqualTo("server busy: manual-capped has 2 calls in flight");
        assertThat(manual.exchanges()).as("the refused call never reached the agent").hasSize(2);

        get.disconnect();
        await().until(() -> h.inFlight("manual-capped") == 1);
        SseCall admitted = mode.open("manual-capped");
        RawAgent.Exchange c = manual.next();
        c.write(event(2));
        await().until(() -> admitted.dataFrames().size() == 1);

        post.disconnect();
        admitted.disconnect();
        await().until(() -> h.inFlight("manual-capped") == 0);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void errorsBeforeTheFirstEventArePlainJsonRpc(Mode mode) {
        // the agent opens a stream and closes it without one event
        manual.respondWith((req, body, ex) -> req.response().setStatusCode(200)
                .putHeader("Content-Type", "text/event-stream").end());
        try {
            Reply empty = mode.call("manual");
            assertThat(empty.header("Content-Type")).startsWith("application/json");
            assertThat(empty.errorCode()).isEqualTo(-32603);
            assertThat(empty.errorData().path("executed").asBoolean(true)).isFalse();
        } finally {
            manual.respondWith(RawAgent.openStream());
        }
        // the agent's own JSON-RPC error, relayed with its bytes
        String refusal = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32004,\"message\":\"no streams today\"}}";
        manual.respondWith(RawAgent.fixed(200, "application/json", refusal));
        try {
            Reply error = mode.call("manual");
            assertThat(error.header("Content-Type")).startsWith("application/json");
            assertThat(error.text()).isEqualTo(refusal);
        } finally {
            manual.respondWith(RawAgent.openStream());
        }
        // an agent that is not registered
        Reply unknown = mode.call("nobody-here");
        assertThat(unknown.errorCode()).isEqualTo(-32002);
        assertThat(unknown.errorMessage()).isEqualTo("agent not found: nobody-here");
    }
}
