package dev.switchboard.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.tracing.OtlpReceiver.ReceivedSpan;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.opentelemetry.proto.trace.v1.Status.StatusCode;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces with {@code Server.spec.tracing.otlpEndpoint} set, as a collector receives them (a local OTLP/HTTP
 * receiver), and as the agents see them (the testkit agents' recorded headers): gateway calls continue the caller's
 * trace, bridge turns are one trace with a child span per agent call, across a dropped stream and a restart.
 */
@ServerTest
class TracingTest {

    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    static Vertx vertx;
    static OtlpReceiver receiver;
    static TestAgent echo;
    static TestAgent dropper;
    static TestAgent slow;
    static ConfigYaml config;
    static SwitchboardApp app;
    static ChatApi chat;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        receiver = OtlpReceiver.start(vertx);
        echo = TestAgent.start(vertx, TestAgentOptions.echo("echo").withVersions(ProtocolVersion.V1_0), 0).await();
        // each stream is cut after its first event while the task goes on: GetTask and SubscribeToTask follow it
        dropper = TestAgent.start(vertx, TestAgentOptions.echo("dropper").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/drop 1"), 0).await();
        // a task that runs for a few seconds, its stream alive: long enough to restart the service in its middle
        slow = TestAgent.start(vertx, TestAgentOptions.echo("slow").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/heartbeat 12 250"), 0).await();
        config = ConfigYaml.server(dir.resolve("chat.db"), """
                tracing:
                  otlpEndpoint: %s
                  serviceName: switchboard-under-test
                """.formatted(receiver.endpoint()));
        config.webAgent("echo", echo.url(), false);
        config.webAgent("dropper", dropper.url(), false);
        config.webAgent("slow", slow.url(), false);
        config.trigger("alerts", "web-echo", "generic", null);
        app = SwitchboardFixture.builder().vertx(vertx).yaml(config).start().app();
        chat = new ChatApi(app.baseUrl());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        for (TestAgent a : new TestAgent[] {echo, dropper, slow}) {
            if (a != null) {
                a.close().await();
            }
        }
        if (receiver != null) {
            receiver.close();
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }

    @BeforeEach
    void clear() {
        echo.recorder().clear();
    }

    // ---- the gateway ----

    @Test
    @DisplayName("A gateway call is a SERVER span that continues the caller's traceparent (parent: the caller's span, "
            + "tracestate kept), with the agent, the JSON-RPC method and the outcome; the agent receives a traceparent "
            + "of the same trace whose parent is that span")
    void aGatewayCallContinuesTheCallersTraceAndTheAgentSeesItsSpan() throws Exception {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String callerSpan = "00f067aa0ba902b7";
        HttpResponse<String> r = gateway("echo", """
                {"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"g1",
                "role":"ROLE_USER","parts":[{"text":"hello"}]}}}""", Map.of("A2A-Version", "1.0",
                "traceparent", "00-" + traceId + "-" + callerSpan + "-01", "tracestate", "vendor=opaque,other=x"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("hello");

        ReceivedSpan span = awaitSpan("the gateway span of trace " + traceId,
                s -> s.traceId().equals(traceId) && s.name().equals("POST /a2a/{agentId}"));
        assertThat(span.parentSpanId()).as("parent: the caller's span").isEqualTo(callerSpan);
        assertThat(span.kind()).isEqualTo(SpanKind.SPAN_KIND_SERVER);
        assertThat(span.traceState()).isEqualTo("vendor=opaque,other=x");
        assertThat(span.attributes()).containsEntry("switchboard.agent.id", "echo")
                .containsEntry("rpc.method", "SendMessage")
                .containsEntry("switchboard.gateway.outcome", "ok")
                .containsEntry("http.response.status_code", 200L)
                .containsEntry("http.route", "/a2a/{agentId}");
        assertThat(span.status()).isNotEqualTo(StatusCode.STATUS_CODE_ERROR);
        assertThat(span.resource()).containsEntry("service.name", "switchboard-under-test");

        RecordedRequest forwarded = echo.recorder().lastRequest();
        Matcher m = traceparent(forwarded);
        assertThat(m.group(1)).as("the agent's trace is the caller's").isEqualTo(traceId);
        assertThat(m.group(2)).as("the agent's parent is the gateway's span").isEqualTo(span.spanId());
        assertThat(m.group(3)).isEqualTo("01");
        assertThat(forwarded.header("tracestate")).isEqualTo("vendor=opaque,other=x");
        assertThat(receiver.problems()).isEmpty();
    }

    @Test
    @DisplayName("A relayed stream's span ends when the stream ends, and says how it went; a call with no "
            + "traceparent starts a trace, which the agent receives")
    void aStreamsSpanEndsWithTheStreamAndACallWithoutTraceStartsOne() throws Exception {
        HttpResponse<String> r = gateway("echo", """
                {"jsonrpc":"2.0","id":"s1","method":"SendStreamingMessage","params":{"message":{"messageId":"g2",
                "role":"ROLE_USER","parts":[{"text":"/stream 3 50\\none two three"}]}}}""", Map.of("A2A-Version", "1.0"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("data:");

        Matcher m = traceparent(echo.recorder().lastRequest());
        ReceivedSpan span = awaitSpan("the stream's gateway span", s -> s.spanId().equals(m.group(2)));
        assertThat(span.traceId()).isEqualTo(m.group(1));
        assertThat(span.parentSpanId()).as("a root span: the caller sent no trace context").isEmpty();
        assertThat(span.attributes()).containsEntry("rpc.method", "SendStreamingMessage")
                .containsEntry("switchboard.gateway.outcome", "ok");

        // an agent that fails: the span says so
        HttpResponse<String> failed = gateway("nobody-here", """
                {"jsonrpc":"2.0","id":3,"method":"message/send","params":{}}""", Map.of());
        assertThat(failed.body()).contains("agent not found");
        ReceivedSpan refused = awaitSpan("the refused call's span", s -> s.name().equals("POST /a2a/{agentId}")
                && "not_found".equals(s.attribute("switchboard.gateway.outcome")));
        assertThat(refused.attributes()).containsEntry("switchboard.agent.id", "unknown");
    }

    @Test
    @DisplayName("A push callback (G14) is a span of its own route, which says when it was refused")
    void aPushCallbackIsASpanOfItsOwn() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/a2a/echo/push/no-such-callback"))
                .header("Content-Type", "application/json").header("X-A2A-Notification-Token", "forged")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(401);
        ReceivedSpan span = awaitSpan("the callback's span", s -> s.name().equals("POST /a2a/{agentId}/push/{callbackId}"));
        assertThat(span.attributes()).containsEntry("switchboard.agent.id", "echo")
                .containsEntry("switchboard.gateway.outcome", "unauthorized")
                .containsEntry("http.response.status_code", 401L);
    }

    // ---- the bridge ----

    @Test
    @DisplayName("A bridge turn through the web chat is one trace: the turn span (child of the message's traceparent) "
            + "with a CLIENT child per agent call — the send whose stream drops, then GetTask and SubscribeToTask — "
            + "and every call the agent receives carries the context of one of those spans")
    void aTurnWithADroppedStreamIsOneTraceWithAChildSpanPerCall() {
        String traceId = "0af7651916cd43dd8448eb211c80319c";
        String callerSpan = "b7ad6b7169203331";
        Sent sent = chat.newThread("dropper", "trace me", null, Map.of(
                "traceparent", "00-" + traceId + "-" + callerSpan + "-01", "tracestate", "vendor=chat"));
        chat.awaitState(sent, "completed");

        ReceivedSpan turn = awaitSpan("the turn's span", s -> s.traceId().equals(traceId) && s.name().equals("bridge turn"));
        assertThat(turn.parentSpanId()).as("the turn continues the message's trace").isEqualTo(callerSpan);
        assertThat(turn.traceState()).isEqualTo("vendor=chat");
        assertThat(turn.attributes()).containsEntry("switchboard.turn.message_id", sent.messageId())
                .containsEntry("switchboard.thread.id", sent.threadId())
                .containsEntry("switchboard.binding", "web-dropper")
                .containsEntry("switchboard.agent.id", "dropper")
                .containsEntry("switchboard.turn.outcome", "completed");

        List<RecordedRequest> calls = dropper.recorder().requests();
        Set<String> received = calls.stream().map(c -> traceparent(c).group(2)).collect(Collectors.toSet());
        assertThat(received).as("a span id per call").hasSize(calls.size());
        // every call's span reaches the collector as a child of the turn span
        List<ReceivedSpan> children = await("a span for each of the %d calls".formatted(calls.size()))
                .until(() -> flushed(traceId).stream().filter(s -> received.contains(s.spanId())).toList(),
                        l -> l.size() == calls.size());
        assertThat(calls).allSatisfy(c -> assertThat(traceparent(c).group(1)).isEqualTo(traceId));
        assertThat(children).allSatisfy(s -> {
            assertThat(s.parentSpanId()).isEqualTo(turn.spanId());
            assertThat(s.kind()).isEqualTo(SpanKind.SPAN_KIND_CLIENT);
            assertThat(s.traceState()).isEqualTo("vendor=chat");
        });
        Map<String, ReceivedSpan> byName = children.stream().collect(Collectors.toMap(ReceivedSpan::name, s -> s, (a, b) -> a));
        assertThat(byName).containsKeys("SendStreamingMessage", "GetTask");
        assertThat(byName.get("SendStreamingMessage").status()).as("the send's stream dropped").isEqualTo(StatusCode.STATUS_CODE_ERROR);
        assertThat(byName.get("SendStreamingMessage").attributes()).containsEntry("error.type", "transport_lost")
                .containsEntry("switchboard.turn.send_attempt", 1L);
        assertThat(calls.stream().map(RecordedRequest::rpcMethod).filter(Objects::nonNull).toList())
                .contains("SendStreamingMessage", "GetTask");
        assertThat(calls).allSatisfy(c -> assertThat(c.header("tracestate")).isEqualTo("vendor=chat"));
    }

    @Test
    @DisplayName("A turn is one trace across a restart: calls made before and after it are children of the same turn "
            + "span, which the process that finishes the turn sends")
    void aTurnIsOneTraceAcrossARestart() {
        Sent sent = chat.newThread("slow", "a long one");
        await("the send reached the agent").until(() -> slow.recorder().rpcRequests().stream().anyMatch(RecordedRequest::isSend));
        String traceId = traceparent(slow.recorder().rpcRequests().get(0)).group(1);
        app.close().await(); // a clean stop in the middle of the turn: the turn is in the store, unfinished
        app = SwitchboardFixture.builder().vertx(vertx).yaml(config).start().app();
        chat = new ChatApi(app.baseUrl());
        chat.awaitState(sent, "completed");

        ReceivedSpan turn = awaitSpan("the turn's span", s -> s.traceId().equals(traceId) && s.name().equals("bridge turn"));
        List<RecordedRequest> calls = slow.recorder().requests();
        assertThat(calls.stream().filter(c -> "GetTask".equals(c.rpcMethod())).count())
                .as("the restarted service reads the task before following it").isGreaterThanOrEqualTo(1);
        Set<String> received = calls.stream().map(c -> traceparent(c).group(2)).collect(Collectors.toSet());
        List<ReceivedSpan> children = await("a span for each of the %d calls, before and after the restart".formatted(calls.size()))
                .until(() -> flushed(traceId).stream().filter(s -> received.contains(s.spanId())).toList(),
                        l -> l.size() == calls.size());
        assertThat(calls).allSatisfy(c -> assertThat(traceparent(c).group(1)).isEqualTo(traceId));
        assertThat(children).allSatisfy(s -> assertThat(s.parentSpanId()).isEqualTo(turn.spanId()));
        assertThat(children.stream().filter(s -> s.name().equals("SendStreamingMessage")).findFirst().orElseThrow()
                .attributes()).as("the stream the stop closed").containsEntry("switchboard.call.closed_by_bridge", true);
        assertThat(receiver.trace(traceId).stream().filter(s -> s.name().equals("bridge turn")).count())
                .as("one turn span").isEqualTo(1);
        long firstAfterRestart = children.stream().filter(s -> s.name().equals("GetTask"))
                .mapToLong(ReceivedSpan::startNanos).min().orElseThrow();
        assertThat(turn.startNanos()).as("the turn span starts when the turn was accepted, before the restart")
                .isLessThan(firstAfterRestart);
    }

    @Test
    @DisplayName("A trigger's turn continues the sender's traceparent: its span is a child of the sender's span, and "
            + "the agent's calls are in that trace")
    void aTriggersTurnContinuesTheSendersTrace() throws Exception {
        String traceId = "5b8efff798038103d269b633813fc60c";
        String senderSpan = "eee19b7ec3c1b174";
        HttpRequest request = HttpRequest.newBuilder(URI.create(app.baseUrl() + "/triggers/alerts"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + ConfigYaml.TRIGGER_TOKEN)
                .header("traceparent", "00-" + traceId + "-" + senderSpan + "-01")
                .POST(HttpRequest.BodyPublishers.ofString("{\"title\": \"disk full\", \"text\": \"on db-1\"}"))
                .build();
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);

        ReceivedSpan turn = awaitSpan("the trigger turn's span", s -> s.traceId().equals(traceId) && s.name().equals("bridge turn"));
        assertThat(turn.parentSpanId()).isEqualTo(senderSpan);
        assertThat(turn.attributes()).containsEntry("switchboard.binding", "web-echo");
        RecordedRequest send = echo.recorder().rpcRequests().stream().filter(RecordedRequest::isSend).findFirst().orElseThrow();
        assertThat(traceparent(send).group(1)).isEqualTo(traceId);
    }

    // ---- helpers ----

    private static HttpResponse<String> gateway(String agent, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(app.baseUrl() + "/a2a/" + agent))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Matcher traceparent(RecordedRequest r) {
        Matcher m = TRACEPARENT.matcher(Objects.requireNonNullElse(r.header("traceparent"), ""));
        assertThat(m.matches()).as("traceparent of %s %s: %s", r.httpMethod(), r.rpcMethod(), r.header("traceparent")).isTrue();
        return m;
    }

    /** The spans of a trace received so far, after asking the exporter to send what it holds (no waiting on its timer). */
    private static List<ReceivedSpan> flushed(String traceId) {
        app.tracing().flush(Duration.ofSeconds(10));
        return receiver.trace(traceId);
    }

    private static ReceivedSpan awaitSpan(String what, java.util.function.Predicate<ReceivedSpan> which) {
        return await(what).until(() -> {
            app.tracing().flush(Duration.ofSeconds(10));
            return receiver.find(which);
        }, java.util.Optional::isPresent).orElseThrow();
    }
}
