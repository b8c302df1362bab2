package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.RawHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, DNS rebinding: a site whose name an attacker points at 127.0.0.1 is same-origin with itself, so
 * its page could read and post the chat of a loopback server. The Host it sends is the attacker's name:
 * answered 421 for the API and the page. Our own names are the public URL's host (or the listen host
 * without one) and the loopback names; a wildcard listen without a public URL cannot know its names and
 * accepts any Host (the public URL turns the check on).
 */
@ServerTest
class ChatRefusesRebindingHostTest {

    private static final String KEY = "chat-key-rebind-77aa";
    private static final String[] PATHS = {"/", "/app.js", "/api/chat/me", "/api/chat/channels",
            "/api/chat/channels/echo/threads", "/api/chat/threads/x/events"};

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent agent;
    /** loopback-only, no public URL */
    static SwitchboardApp loopback;
    /** all interfaces, public URL https://chat.example.com */
    static SwitchboardApp published;
    /** all interfaces, no public URL */
    static SwitchboardApp wildcard;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        loopback = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("a.db"), "").webBackend("echo", agent.url(), null)).start().app();
        String exposed = """
                listen: 0.0.0.0:0
                adminToken: admin-token-0123456789
                apiKeys: [{name: ci-bot, key: %s}]
                """.formatted(KEY);
        published = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("b.db"), exposed + "publicUrl: https://chat.example.com\n")
                .webBackend("echo", agent.url(), null)).start().app();
        wildcard = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("c.db"), exposed).webBackend("echo", agent.url(), null)).start().app();
    }

    @AfterAll
    static void stop() {
        for (SwitchboardApp a : new SwitchboardApp[] {loopback, published, wildcard}) {
            if (a != null) {
                a.close().await();
            }
        }
        if (agent != null) {
            agent.close().await();
        }
        vertx.close().await();
    }

    @Test
    void aLoopbackServerRefusesAForeignHostOnTheApiAndThePage() {
        RawHttp http = http(loopback);
        for (String path : PATHS) {
            RawHttp.Response r = http.get(path, Map.of("Host", "rebind.evil.example:" + port(loopback)));
            assertThat(r.status()).as("GET %s", path).isEqualTo(421);
        }
        RawHttp.Response post = http.post("/api/chat/channels/echo/threads", Map.of("Host", "rebind.evil.example",
                "Origin", "http://rebind.evil.example", "Content-Type", "application/json"), ChatApi.body("rebound", null));
        assertThat(post.status()).isEqualTo(421);
        assertThat(ChatApi.read(post.body()).path("field").asText()).isEqualTo("Host");
    }

    @Test
    void aLoopbackServerAnswersToItsLoopbackNames() {
        RawHttp http = http(loopback);
        for (String host : new String[] {"127.0.0.1", "localhost", "LOCALHOST", "[::1]"}) {
            for (String path : PATHS) {
                if (path.endsWith("/events")) {
                    continue; // a stream that stays open; its Host check is the one above
                }
                RawHttp.Response r = http.get(path, Map.of("Host", host + ":" + port(loopback)));
                assertThat(r.status()).as("GET %s with Host %s", path, host).isEqualTo(200);
            }
        }
    }

    @Test
    void withAPublicUrlOnlyItsHostAndLoopbackNamesAreAnswered() {
        RawHttp http = http(published);
        Map<String, String> key = Map.of("Authorization", "Bearer " + KEY);
        assertThat(http.get("/api/chat/channels", with(key, "Host", "chat.example.com")).status()).isEqualTo(200);
        assertThat(http.get("/", Map.of("Host", "chat.example.com")).status()).isEqualTo(200);
        assertThat(http.get("/api/chat/channels", with(key, "Host", "localhost:" + port(published))).status()).isEqualTo(200);
        assertThat(http.get("/api/chat/channels", with(key, "Host", "other.example.com")).status()).isEqualTo(421);
        assertThat(http.get("/", Map.of("Host", "10.1.2.3:" + port(published))).status()).isEqualTo(421);

        // behind the TLS proxy the browser's Origin is the public URL's
        Map<String, String> page = with(with(with(key, "Host", "chat.example.com"), "Content-Type", "application/json"),
                "Origin", "https://chat.example.com");
        RawHttp.Response ok = http.post("/api/chat/channels/echo/threads", page, ChatApi.body("published", null));
        assertThat(ok.status()).as(ok.body()).isEqualTo(201);
        RawHttp.Response foreign = http.post("/api/chat/channels/echo/threads",
                with(page, "Origin", "https://evil.example"), ChatApi.body("forged", null));
        assertThat(foreign.status()).isEqualTo(403);
    }

    @Test
    void aWildcardListenWithoutPublicUrlAcceptsAnyHost() {
        RawHttp.Response r = http(wildcard).get("/api/chat/channels",
                Map.of("Host", "whatever.example", "Authorization", "Bearer " + KEY));
        assertThat(r.status()).isEqualTo(200);
    }

    private static RawHttp http(SwitchboardApp a) {
        return new RawHttp("http://127.0.0.1:" + port(a));
    }

    private static int port(SwitchboardApp a) {
        return URI.create(a.baseUrl()).getPort();
    }

    private static Map<String, String> with(Map<String, String> headers, String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(name, value);
        return h;
    }
}
