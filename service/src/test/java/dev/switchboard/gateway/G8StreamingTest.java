package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G8: {@code message/stream}, {@code SendStreamingMessage}, {@code tasks/resubscribe},
 * {@code SubscribeToTask} (or any call the agent answers with {@code text/event-stream}) are relayed
 * as SSE, event by event, flushed at once, never buffered whole. A keepalive comment is sent when the
 * stream has been quiet for the keepalive interval (15 s by default; 300 ms here); an idle stream (no
 * agent event for {@code streamIdleTimeout}) is closed; when the caller disconnects, the upstream
 * request is closed within 1 s and its slot freed. Errors before the first event come back as plain
 * JSON-RPC.
 */
@ServerTest
class G8StreamingTest {

    private static final long MAX = AgentLimits.DEFAULTS.maxResponseBytes();

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent streamer;
    static RawAgent manual;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        streamer = h.agent(TestAgentOptions.echo("streamer"));
        manual = h.raw(RawAgent.openStream());
        h.keepaliveInterval(Duration.ofMillis(300))
                .backend("streamer", streamer.url())
                .backend("manual", manual.url(), Harness.limits(100, 300, 3600, MAX, 300))
                .backend("manual-idle", manual.url(), Harness.limits(100, 300, 3600, MAX, 1))
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static String event(int n) {
        return "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":" + n + "}}\n\n";
    }

    @Test
    void g8_defaultsAre15sKeepaliveAnd5MinIdle() {
        assertThat(GatewaySettings.DEFAULTS.keepaliveInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(AgentLimits.DEFAULTS.streamIdleTimeoutSeconds()).isEqualTo(300);
    }

    @Test
    void g8_eachEventIsRelayedAsSoonAsTheAgentSendsIt() {
        manual.clear();
        SseCall call = h.http().stream("/a2a/manual", Rpc.stream(1, "step by step"));
        RawAgent.Exchange upstream = manual.next();

        upstream.write(event(1));
        await().until(() -> call.dataFrames().size() == 1);
        // the agent has sent nothing more and not ended: the first event cannot have waited for the rest
        assertThat(call.isEnded()).isFalse();
        assertThat(call.status()).isEqualTo(200);
        assertThat(call.header("Content-Type")).startsWith("text/event-stream");

        upstream.write(event(2));
        await().until(() -> call.dataFrames().size() == 2);
        assertThat(call.isEnded()).isFalse();

        upstream.write(event(3));
        upstream.end();
        call.awaitEnd();
        assertThat(call.endedNormally()).isTrue();
        // the agent's bytes, frame by frame
        assertThat(call.dataFrames()).containsExactly(event(1), event(2), event(3));
    }

    @Test
    void g8_everyStreamingMethodIsRelayedAsSse() {
        TestHttp http = h.http();

        SseCall v03 = http.stream("/a2a/streamer", Rpc.stream(1, "/stream 3 10\nzero three"));
        SseCall v10 = http.stream("/a2a/streamer", Rpc.send10(2, "SendStreamingMessage", "/stream 3 10\none oh").toString(),
                "A2A-Version", "1.0");
        v03.awaitEnd();
        v10.awaitEnd();
        assertThat(v03.header("Content-Type")).startsWith("text/event-stream");
        assertThat(v03.events()).hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(e -> assertThat(e.path("id").asInt()).isEqualTo(1));
        assertThat(v03.events().get(v03.events().size() - 1).path("result").path("status").path("state").asText())
                .isEqualTo("completed");
        assertThat(v10.header("Content-Type")).startsWith("text/event-stream");
        assertThat(v10.events()).hasSizeGreaterThanOrEqualTo(5);
        assertThat(v10.events().get(0).path("result").has("task")).isTrue();

        // a running task to subscribe to, in both versions
        SseCall running = http.stream("/a2a/streamer", Rpc.stream(3, "/slow 1500"));
        await().until(() -> !running.dataFrames().isEmpty());
        String taskId = running.events().get(0).path("result").path("id").asText();
        SseCall resubscribe = http.stream("/a2a/streamer",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\"" + taskId + "\"}}");
        SseCall subscribe = http.stream("/a2a/streamer",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"SubscribeToTask\",\"params\":{\"id\":\"" + taskId + "\"}}",
                "A2A-Version", "1.0");
        for (SseCall call : List.of(running, resubscribe, subscribe)) {
            call.awaitEnd();
            assertThat(call.header("Content-Type")).startsWith("text/event-stream");
            assertThat(call.events()).isNotEmpty();
        }
        assertThat(resubscribe.events().get(0).path("result").path("id").asText()).isEqualTo(taskId);
        assertThat(subscribe.events().get(0).path("result").path("task").path("id").asText()).isEqualTo(taskId);
        assertThat(streamer.recorder().rpcMethods())
                .contains("message/stream", "SendStreamingMessage", "tasks/resubscribe", "SubscribeToTask");
    }

    @Test
    void g8_testkitEventsArriveBeforeTheStreamEnds() {
        SseCall call = h.http().stream("/a2a/streamer", Rpc.stream(6, "/stream 4 400\nslowly, chunk by chunk"));
        await().until(() -> !call.dataFrames().isEmpty());
        assertThat(call.isEnded()).as("ended before its first event was seen").isFalse();
        call.awaitEnd();
        assertThat(call.events()).hasSizeGreaterThanOrEqualTo(6);
    }

    @Test
    void g8_anyCallTheAgentAnswersWithAnEventStreamIsRelayed() {
        manual.clear();
        SseCall call = h.http().stream("/a2a/manual", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"custom/watch\"}");
        RawAgent.Exchange upstream = manual.next();
        upstream.write(event(1));
        upstream.end();
        call.awaitEnd();

        assertThat(call.header("Content-Type")).startsWith("text/event-stream");
        assertThat(call.dataFrames()).containsExactly(event(1));
    }

    @Test
    void g8_aQuietStreamGetsKeepaliveComments() {
        manual.clear();
        SseCall call = h.http().stream("/a2a/manual", Rpc.stream(1, "quiet"));
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

    @Test
    void g8_anIdleStreamIsClosedAndItsUpstreamToo() {
        manual.clear();
        SseCall call = h.http().stream("/a2a/manual-idle", Rpc.stream(1, "then silence"));
        RawAgent.Exchange upstream = manual.next();
        upstream.write(event(1));

        call.awaitEnd(); // idle timeout 1 s; keepalives (300 ms) do not count as agent events
        assertThat(call.dataFrames()).containsExactly(event(1));
        assertThat(call.keepalives()).isGreaterThanOrEqualTo(1);
        await().untilAsserted(() -> assertThat(upstream.connectionClosed()).isTrue());
        await().until(() -> h.inFlight("manual-idle") == 0 && h.openStreams("manual-idle") == 0);
    }

    @Test
    void g8_callerDisconnectClosesTheUpstreamAndFreesTheSlot() {
        manual.clear();
        SseCall call = h.http().stream("/a2a/manual", Rpc.stream(1, "I will hang up"));
        RawAgent.Exchange upstream = manual.next();
        upstream.write(event(1));
        await().until(() -> call.dataFrames().size() == 1);
        assertThat(h.inFlight("manual")).isEqualTo(1);
        assertThat(h.openStreams("manual")).isEqualTo(1);

        call.disconnect();

        // the agent never ends this stream, so only the disconnect can close it; "within 1 s" is left to
        // the default wait, as a 1 s wall-clock bound would fail on a loaded machine
        await().pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            assertThat(upstream.connectionClosed()).as("agent-side connection closed").isTrue();
            assertThat(h.inFlight("manual")).isZero();
            assertThat(h.openStreams("manual")).isZero();
        });
    }

    @Test
    void g8_streamsAreServedOverHttp11EvenToAClientOfferingTheHttp2Upgrade() throws Exception {
        // the JDK client offers h2c by default; the gateway stays on HTTP/1.1, where SSE needs nothing more
        java.net.http.HttpClient jdk = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpResponse<String> r = jdk.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(h.base() + "/a2a/streamer"))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(Rpc.stream(1, "/stream 2 10\nupgrade?")))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        assertThat(r.body()).contains("\"state\":\"completed\"");
    }

    @Test
    void g8_errorsBeforeTheFirstEventArePlainJsonRpc() {
        // the agent's own JSON-RPC error to a streaming call
        Reply rpcError = h.http().rpc("streamer", Rpc.stream(1, "/error -32004 streams are off today"));
        assertThat(rpcError.header("Content-Type")).startsWith("application/json");
        assertThat(rpcError.errorCode()).isEqualTo(-32004);

        // a task that does not exist
        Reply unknownTask = h.http().rpc("streamer",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\"no-such-task\"}}");
        assertThat(unknownTask.header("Content-Type")).startsWith("application/json");
        assertThat(unknownTask.errorCode()).isEqualTo(-32001);

        // the agent fails at the HTTP level
        Reply unavailable = h.http().rpc("streamer", Rpc.stream(3, "/http 503"));
        assertThat(unavailable.header("Content-Type")).startsWith("application/json");
        assertThat(unavailable.errorCode()).isEqualTo(-32603);

        // the agent opens a stream and closes it without one event
        manual.respondWith((req, body, ex) -> req.response().setStatusCode(200)
                .putHeader("Content-Type", "text/event-stream").end());
        try {
            Reply empty = h.http().rpc("manual", Rpc.stream(4, "nothing to say"));
            assertThat(empty.header("Content-Type")).startsWith("application/json");
            assertThat(empty.errorCode()).isEqualTo(-32603);
            JsonNode data = empty.errorData();
            assertThat(data.path("executed").asBoolean(true)).isFalse();
            assertThat(empty.json().path("id").asInt()).isEqualTo(4);
        } finally {
            manual.respondWith(RawAgent.openStream());
        }
    }
}
