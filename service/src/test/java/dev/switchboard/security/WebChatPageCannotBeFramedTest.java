package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.RawHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, L4: no other site may show the web chat in a frame of its own (clickjacking: a visitor's clicks on a
 * decoy land on the chat underneath). The page and every API answer, refusals included, say so in both the old
 * header and the CSP one.
 */
@ServerTest
class WebChatPageCannotBeFramedTest {

    private static final String KEY = "chat-key-frames-0b7d";

    @TempDir
    Path dir;
    Vertx vertx;
    TestAgent agent;
    SwitchboardApp app;

    @AfterEach
    void stop() {
        TestServers.stop(app, agent, vertx);
    }

    @Test
    void thePageAndTheApiForbidFraming() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        // reachable beyond this machine: the API wants a key, so a refusal is among the answers checked; and it has a
        // public URL, so that a request for another host name is refused too
        app = SwitchboardFixture.builder().vertx(vertx).yaml(ConfigYaml.server(dir.resolve("chat.db"), """
                listen: 0.0.0.0:0
                publicUrl: http://chat.example:8080
                adminToken: admin-token-0123456789
                apiKeys: [{name: ci-bot, key: %s}]
                """.formatted(KEY)).webBackend("echo", agent.url(), null)).start().app();
        RawHttp http = new RawHttp("http://127.0.0.1:" + java.net.URI.create(app.baseUrl()).getPort());
        Map<String, String> key = Map.of("Authorization", "Bearer " + KEY);

        record Call(String path, Map<String, String> headers, int status) {}
        for (Call c : new Call[] {
                new Call("/", Map.of(), 200),
                new Call("/index.html", Map.of(), 200),
                new Call("/app.js", Map.of(), 200),
                new Call("/api/chat/channels", key, 200),
                new Call("/api/chat/me", key, 200),
                new Call("/api/chat/channels", Map.of(), 401),
                new Call("/api/chat/threads/nope", key, 404),
                new Call("/api/chat/nothing", key, 404)}) {
            RawHttp.Response r = http.get(c.path(), c.headers());
            assertThat(r.status()).as("GET %s: %s", c.path(), r.body()).isEqualTo(c.status());
            assertThat(r.header("X-Frame-Options")).as("X-Frame-Options of %s", c.path()).isEqualTo("DENY");
            String csp = r.header("Content-Security-Policy");
            assertThat(csp).as("CSP of %s", c.path()).isNotNull();
            assertThat(csp.split(";")).as("CSP of %s", c.path()).anySatisfy(d ->
                    assertThat(d.strip()).isEqualTo("frame-ancestors 'none'"));
        }
        // a refused host name is answered too, and with the same headers
        for (String path : new String[] {"/", "/api/chat/channels"}) {
            RawHttp.Response misdirected = http.get(path, Map.of("Host", "evil.example"));
            assertThat(misdirected.status()).as("GET %s for another host", path).isEqualTo(421);
            assertThat(misdirected.header("X-Frame-Options")).isEqualTo("DENY");
            assertThat(misdirected.header("Content-Security-Policy")).contains("frame-ancestors 'none'");
        }
    }
}
