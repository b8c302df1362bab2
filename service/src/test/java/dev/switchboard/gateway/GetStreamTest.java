package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.http.HttpMethod;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /a2a/{agentId}/stream} (KubeMQ reference §6): what the agent is sent — a POST of a JSON-RPC
 * {@code message/stream} with empty params, as KubeMQ's own mock agents expect (they answer POST {@code /} only,
 * and stream only for {@code message/stream}), with the caller's headers under the sync call's policy — and that
 * an agent written like KubeMQ's mock stream agent is relayed event by event. The stream rules are in
 * {@link StreamModesTest}.
 */
@ServerTest
class GetStreamTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent manual;
    static RawAgent kubemqMock;

    /** The events of KubeMQ's burn-in stream agent: status updates, then task.done. */
    static List<String> mockEvents(int n) {
        List<String> events = new ArrayList<>();
        for (int i = 0; i < n - 1; i++) {
            events.add("event: task.status\ndata: {\"type\": \"status_update\", \"payload\": {\"status\": \"working\", \"progress\": "
                    + i + ", \"total\": " + n + "}}\n\n");
        }
        events.add("event: task.done\ndata: {\"type\": \"done\", \"payload\": {\"final_result\": \"completed\", \"event_count\": "
                + n + "}}\n\n");
        return events;
    }

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        manual = h.raw(RawAgent.openStream());
        // like KubeMQ's mock agents: POST / only; message/stream answered with SSE, anything else with JSON
        kubemqMock = h.raw((req, body, ex) -> {
            if (req.method() != HttpMethod.POST || !req.path().equals("/")) {
                req.response().setStatusCode(405).end();
                return;
            }
            JsonNode rpc;
            try {
                rpc = JSON.readTree(body.getBytes());
            } catch (java.io.IOException e) {
                req.response().setStatusCode(400).end();
                return;
            }
            if (!rpc.path("method").asText().equals("message/stream")) {
                req.response().putHeader("Content-Type", "application/json")
                        .end("{\"jsonrpc\":\"2.0\",\"id\":" + rpc.path("id") + ",\"result\":{\"status\":\"ok\"}}");
                return;
            }
            req.response().setStatusCode(200).setChunked(true).putHeader("Content-Type", "text/event-stream")
                    .putHeader("Cache-Control", "no-cache");
            for (String e : mockEvents(5)) {
                req.response().write(e);
            }
            req.response().end();
        });
        h.backend("manual", manual.url()).backend("kubemq-mock", kubemqMock.url()).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void theAgentIsSentAMessageStreamCallWithTheCallersHeadersUnderThePolicy() throws Exception {
        manual.clear();
        SseCall call = h.http().streamGet("/a2a/manual/stream?topic=builds",
                "X-Custom-Header", "my-custom-value", "Authorization", "Bearer not-for-the-agent",
                "Cookie", "session=secret", "X-Forwarded-For", "10.9.9.9", "Accept", "text/event-stream");
        RawAgent.Exchange upstream = manual.next();
        upstream.write("event: task.status\ndata: {}\n\n");
        await().until(() -> call.dataFrames().size() == 1);

        assertThat(upstream.method()).isEqualTo("POST");
        assertThat(upstream.path()).isEqualTo("/");
        JsonNode body = JSON.readTree(upstream.body().getBytes());
        assertThat(body.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(body.path("method").asText()).isEqualTo("message/stream");
        assertThat(body.path("id").asText()).startsWith("stream-");
        assertThat(body.path("params").isObject()).isTrue();
        assertThat(body.path("params").size()).isZero();
        assertThat(upstream.header("Content-Type")).isEqualTo("application/json");
        assertThat(upstream.header("Accept")).isEqualTo("text/event-stream");
        assertThat(upstream.header("X-Custom-Header")).isEqualTo("my-custom-value");
        assertThat(upstream.header("X-Switchboard-Caller-ID")).isEqualTo("127.0.0.1");
        assertThat(upstream.header("Authorization")).isNull();
        assertThat(upstream.header("Cookie")).isNull();
        assertThat(upstream.header("X-Forwarded-For")).isNull();
        call.disconnect();
        await().until(() -> h.inFlight("manual") == 0);
    }

    @Test
    void withoutAnAcceptHeaderTheAgentIsAskedForAnEventStream() {
        manual.clear();
        SseCall call = h.http().streamGet("/a2a/manual/stream");
        RawAgent.Exchange upstream = manual.next();
        assertThat(upstream.header("Accept")).isEqualTo("text/event-stream");
        upstream.end();
        call.awaitEnd();
        await().until(() -> h.inFlight("manual") == 0);
    }

    @Test
    void anAgentWrittenLikeKubemqsMockStreamAgentIsRelayedEventByEvent() {
        SseCall call = h.http().streamGet("/a2a/kubemq-mock/stream", "Accept", "text/event-stream");
        call.awaitEnd();
        assertThat(call.endedNormally()).isTrue();
        assertThat(call.status()).isEqualTo(200);
        assertThat(call.header("Content-Type")).startsWith("text/event-stream");
        assertThat(call.dataFrames()).containsExactlyElementsOf(mockEvents(5));
    }

    @Test
    void aGetWithABodyIsRefusedNamingTheProblem() {
        Reply r = h.http().send(HttpMethod.GET, "/a2a/manual/stream", "{\"jsonrpc\":\"2.0\"}").toCompletionStage()
                .toCompletableFuture().join();
        assertThat(r.errorCode()).isEqualTo(-32600);
        assertThat(r.errorMessage()).contains("takes no body");
        assertThat(manual.exchanges()).noneMatch(e -> e.body().toString().contains("\"jsonrpc\":\"2.0\"}"));
    }

    @Test
    void otherMethodsOnTheStreamPathAreNotServed() {
        Reply post = h.http().post("/a2a/manual/stream", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/stream\"}");
        assertThat(post.status()).isIn(404, 405);
    }
}
