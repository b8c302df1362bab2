package dev.switchboard.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
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
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tracing off (the default): no SDK, no exporter thread, and the gateway leaves the caller's trace context as the
 * header policy says (G5): passed on unchanged when sent, none invented when not.
 */
@ServerTest
class TracingOffTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent echo;
    static SwitchboardApp app;
    /** exporter threads of earlier tests in this JVM (one may still be ending): not this app's */
    static java.util.Set<Thread> exportersBefore;

    @BeforeAll
    static void start() {
        exportersBefore = exporterThreads();
        vertx = Vertx.vertx();
        echo = TestAgent.start(vertx, TestAgentOptions.echo("echo").withVersions(ProtocolVersion.V1_0), 0).await();
        ConfigYaml config = ConfigYaml.server(dir.resolve("chat.db"), "");
        config.webAgent("echo", echo.url(), false);
        app = SwitchboardFixture.builder().vertx(vertx).yaml(config).start().app();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        if (echo != null) {
            echo.close().await();
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }

    @BeforeEach
    void clear() {
        echo.recorder().clear();
    }

    @Test
    @DisplayName("Off by default: no tracer, no span exporter thread")
    void offByDefaultNothingRuns() {
        assertThat(app.tracing().on()).isFalse();
        assertThat(exporterThreads()).as("span exporter threads started by this app").isSubsetOf(exportersBefore);
    }

    private static java.util.Set<Thread> exporterThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().contains("BatchSpanProcessor"))
                .collect(java.util.stream.Collectors.toSet());
    }

    @Test
    @DisplayName("Off: a call without a traceparent reaches the agent without one")
    void noTraceparentIsInvented() throws Exception {
        call(Map.of());
        RecordedRequest r = echo.recorder().lastRequest();
        assertThat(r.header("traceparent")).isNull();
        assertThat(r.header("tracestate")).isNull();
    }

    @Test
    @DisplayName("Off: the caller's traceparent and tracestate reach the agent unchanged")
    void theCallersTraceContextPassesUnchanged() throws Exception {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        call(Map.of("traceparent", traceparent, "tracestate", "vendor=opaque"));
        RecordedRequest r = echo.recorder().lastRequest();
        assertThat(r.header("traceparent")).isEqualTo(traceparent);
        assertThat(r.header("tracestate")).isEqualTo("vendor=opaque");
    }

    private static void call(Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(app.baseUrl() + "/a2a/echo"))
                .header("Content-Type", "application/json")
                .header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"off-1",
                        "role":"ROLE_USER","parts":[{"text":"hello"}]}}}"""));
        headers.forEach(b::header);
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("hello");
    }
}
