package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.gateway.support.Wait;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threat: the metrics share the port the agents' callers reach, so whoever may call the gateway may read them.
 * With {@code Server.spec.ops.listen} they move to that address only (the main port answers 404 for them); the probes
 * answer on both, as kubelet probes target the main port; the ops listener closes with the app.
 */
@ServerTest
class MetricsMoveToTheOpsListenAddressTest {

    private final Vertx vertx = Vertx.vertx();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private SwitchboardApp app;
    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        TestServers.stop(app, null, vertx);
    }

    @Test
    void metricsAreServedOnTheOpsAddressAndNotOnTheMainPort() throws Exception {
        int ops = freePort();
        app = SwitchboardFixture.builder().vertx(vertx).yaml("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                  store: sqlite:%s
                  ops: {listen: "127.0.0.1:%d"}
                """.formatted(dir.resolve("switchboard.db"), ops)).start().app();
        int main = app.server().port();

        HttpResponse<String> there = get(ops, "/metrics");
        assertThat(there.statusCode()).isEqualTo(200);
        assertThat(there.body()).contains("jvm_");
        HttpResponse<String> notHere = get(main, "/metrics");
        assertThat(notHere.statusCode()).isEqualTo(404);
        assertThat(notHere.body()).doesNotContain("jvm_");

        for (int port : new int[] {main, ops}) {
            assertThat(get(port, "/healthz").statusCode()).as("/healthz on " + port).isEqualTo(200);
            assertThat(get(port, "/readyz").statusCode()).as("/readyz on " + port).isEqualTo(200);
        }
        // only the ops endpoints are on the ops address
        assertThat(get(ops, "/agents").statusCode()).isEqualTo(404);

        Wait.on(app.close());
        app = null;
        assertThatThrownBy(() -> get(ops, "/healthz")).isInstanceOf(ConnectException.class);
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
