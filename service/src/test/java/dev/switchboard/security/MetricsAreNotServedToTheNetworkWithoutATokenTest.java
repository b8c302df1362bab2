package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threat: a server listening beyond loopback hands {@code /metrics} (agent ids, API-key names, traffic, errors) to
 * anyone who can reach its port. On the main port, a caller from the network needs the admin token as a bearer
 * token; with no admin token (an insecure server) only callers on this machine get it. The probes stay open.
 */
@ServerTest
class MetricsAreNotServedToTheNetworkWithoutATokenTest {

    private static final String ADMIN = "an-admin-token-0123456789";
    private static final String API_KEY = "an-api-key-0123456789";

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
    void aNetworkCallerNeedsTheAdminToken() throws Exception {
        String network = networkAddress();
        app = start("""
                  adminToken: %s
                  apiKeys: [{name: ci, key: %s}]
                """.formatted(ADMIN, API_KEY));
        int port = app.server().port();
        assertThat(get(network, port, "/metrics", null).statusCode()).isEqualTo(401);
        assertThat(get(network, port, "/metrics", "Bearer wrong-token-0123456789").statusCode()).isEqualTo(401);
        // an API key is a gateway caller's: it does not show the other callers' traffic
        assertThat(get(network, port, "/metrics", "Bearer " + API_KEY).statusCode()).isEqualTo(401);
        HttpResponse<String> withToken = get(network, port, "/metrics", "Bearer " + ADMIN);
        assertThat(withToken.statusCode()).isEqualTo(200);
        assertThat(withToken.body()).contains("jvm_");
        // with a token, loopback callers need it too: behind a sidecar or a local proxy, the network arrives from loopback
        assertThat(get("127.0.0.1", port, "/metrics", null).statusCode()).isEqualTo(401);
        assertThat(get("127.0.0.1", port, "/metrics", "Bearer " + ADMIN).statusCode()).isEqualTo(200);
        assertThat(get(network, port, "/healthz", null).statusCode()).isEqualTo(200);
        assertThat(get(network, port, "/readyz", null).statusCode()).isEqualTo(200);
    }

    @Test
    void withoutAnAdminTokenOnlyThisMachineGetsThem() throws Exception {
        String network = networkAddress();
        app = start("  insecure: true\n");
        int port = app.server().port();
        HttpResponse<String> refused = get(network, port, "/metrics", "Bearer " + ADMIN);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("jvm_");
        assertThat(get("127.0.0.1", port, "/metrics", null).statusCode()).isEqualTo(200);
        assertThat(get(network, port, "/healthz", null).statusCode()).isEqualTo(200);
    }

    private SwitchboardApp start(String credentials) {
        String yaml = """
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 0.0.0.0:0
                  store: sqlite:%s
                %s""".formatted(dir.resolve("switchboard.db"), credentials);
        return SwitchboardFixture.builder().vertx(vertx).yaml(yaml).start().app();
    }

    private HttpResponse<String> get(String host, int port, String path, String authorization)
            throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path))
                .timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** An address of this machine that is not loopback: a connection to it comes from it, as from the network. */
    static String networkAddress() throws IOException {
        Optional<String> found = Optional.empty();
        for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!i.isUp() || i.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(i.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    found = Optional.of(a.getHostAddress());
                }
            }
        }
        assumeTrue(found.isPresent(), "this machine has no non-loopback IPv4 address to call from");
        return found.get();
    }
}
