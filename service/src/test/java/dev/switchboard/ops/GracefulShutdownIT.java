package dev.switchboard.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.ServiceProcess;
import dev.switchboard.bridge.support.Teardown;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * O3, issue 13 point 7, on the packaged jar: SIGTERM while a slow unary call and an endless stream are in flight.
 * {@code /readyz} turns 503 at once and new calls are answered 503; the slow call still gets its full answer; the
 * stream ends once {@code shutdownGracePeriod} has passed; the process exits 0 within that bound, its store closed.
 */
@ServerTest
@ProcessTest
class GracefulShutdownIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration GRACE = Duration.ofSeconds(8);
    private static final long SLOW_MS = 4000;

    @TempDir
    Path dir;
    Vertx vertx;
    TestAgent agent;
    ServiceProcess service;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void stop() throws Exception {
        Teardown.stop(service, agent, vertx);
    }

    @Test
    void sigtermDrainsTheCallsInFlightThenExitsZeroWithTheStoreClosed() throws Exception {
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null, "runs in failsafe, on the packaged jar");
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("slow"), 0).await();
        Path config = dir.resolve("switchboard.yaml");
        Path store = dir.resolve("drain.db");
        Files.writeString(config, ConfigYaml.server(store, "http: {shutdownGracePeriod: " + GRACE.toSeconds() + "s}")
                .webBackend("slow", agent.url(), null)
                .yaml());
        service = new ServiceProcess(config, Path.of("target", "graceful-shutdown"));
        String base = service.start();
        assertThat(get(base + "/readyz").statusCode()).isEqualTo(200);

        CompletableFuture<HttpResponse<String>> slow = http.sendAsync(call(base, "message/send", "/slow " + SLOW_MS, "m1"),
                HttpResponse.BodyHandlers.ofString());
        AtomicInteger events = new AtomicInteger();
        CompletableFuture<Long> streamEndedAt = CompletableFuture.supplyAsync(() -> readStream(
                call(base, "message/stream", "/stream 1000 500", "m2"), events));
        Awaitility.await("both calls reach the agent and the stream flows").atMost(Duration.ofSeconds(30))
                .until(() -> agent.recorder().rpcRequests().size() >= 2 && events.get() > 0);

        Process p = service.process();
        long sigterm = System.nanoTime();
        p.destroy(); // SIGTERM

        HttpResponse<String> notReady = Awaitility.await("/readyz turns 503").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20)).until(() -> get(base + "/readyz"), r -> r.statusCode() == 503);
        assertThat(notReady.body()).contains("shutting down");
        HttpResponse<String> late = http.send(call(base, "message/send", "hello", "m3"), HttpResponse.BodyHandlers.ofString());
        assertThat(late.statusCode()).as("a call that arrives while draining").isEqualTo(503);

        HttpResponse<String> answered = slow.get(30, TimeUnit.SECONDS);
        assertThat(answered.statusCode()).isEqualTo(200);
        JsonNode reply = JSON.readTree(answered.body());
        assertThat(reply.has("error")).as("the slow call's reply: %s", answered.body()).isFalse();
        assertThat(reply.path("result").isObject()).as("the slow call's reply: %s", answered.body()).isTrue();
        long answeredAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sigterm);

        long streamEnd = streamEndedAt.get(GRACE.toSeconds() + 30, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(streamEnd - sigterm)).as("the stream had the grace period")
                .isGreaterThanOrEqualTo(GRACE.toMillis() - 1000);

        assertThat(p.waitFor(GRACE.toSeconds() + 30, TimeUnit.SECONDS)).as("exits after the grace period").isTrue();
        assertThat(p.exitValue()).as("exit code; stderr:\n%s", service.errors()).isZero();
        assertThat(Files.exists(store.resolveSibling(store.getFileName() + "-wal")))
                .as("SQLite removes the WAL file when the last connection closes: the store was closed").isFalse();
        assertThat(service.errors()).doesNotContain("did not finish cleanly");
        assertThat(answeredAfterMs).as("the slow call was answered during the drain, not cut").isLessThan(GRACE.toMillis());
    }

    private HttpRequest call(String base, String method, String text, String messageId) {
        return HttpRequest.newBuilder(URI.create(base + "/a2a/slow"))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"jsonrpc":"2.0","id":1,"method":"%s","params":{"message":{"kind":"message","messageId":"%s",
                        "role":"user","parts":[{"kind":"text","text":"%s"}]}}}""".formatted(method, messageId, text)))
                .build();
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new IllegalStateException("no longer listening: " + url, e);
        }
    }

    /** Reads an SSE reply to its end; returns when it ended (System.nanoTime). */
    private long readStream(HttpRequest request, AtomicInteger events) {
        try {
            HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("data:")) {
                        events.incrementAndGet();
                    }
                }
            } catch (IOException cut) {
                // the connection closed under the stream: that is its end
            }
            return System.nanoTime();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
