package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.RawHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, web chat identity: on a server reachable beyond this machine, nobody uses the chat without an
 * identity — an API key, or a user a trusted proxy vouches for. Forwarded-user headers from anyone else are
 * not believed; the page itself loads (it holds no data and asks for the key).
 */
@ServerTest
class ChatApiRefusesAnonymousCallersTest {

    private static final String KEY = "chat-key-5e1d7c0a";

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent agent;
    /** listens on all interfaces; proxies are trusted only from 10.0.0.0/8, and this test calls from 127.0.0.1 */
    static SwitchboardApp app;
    /** the same, but the proxy is on this machine */
    static SwitchboardApp proxied;
    /** all interfaces, no credentials at all: the operator said insecure */
    static SwitchboardApp insecure;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx).yaml(ConfigYaml.server(dir.resolve("a.db"), """
                listen: 0.0.0.0:0
                adminToken: admin-token-0123456789
                apiKeys: [{name: ci-bot, key: %s}]
                webChat: {trustedProxies: [10.0.0.0/8]}
                """.formatted(KEY)).webBackend("echo", agent.url(), null)).start().app();
        proxied = SwitchboardFixture.builder().vertx(vertx).yaml(ConfigYaml.server(dir.resolve("b.db"), """
                listen: 0.0.0.0:0
                adminToken: admin-token-0123456789
                apiKeys: [{name: ci-bot, key: %s}]
                webChat: {trustedProxies: [127.0.0.1/32]}
                """.formatted(KEY)).webBackend("echo", agent.url(), null)).start().app();
        insecure = SwitchboardFixture.builder().vertx(vertx).yaml(ConfigYaml.server(dir.resolve("c.db"), """
                listen: 0.0.0.0:0
                insecure: true
                """).webBackend("echo", agent.url(), null)).start().app();
    }

    @AfterAll
    static void stop() {
        for (SwitchboardApp a : new SwitchboardApp[] {app, proxied, insecure}) {
            if (a != null) {
                a.close().await();
            }
        }
        if (agent != null) {
            agent.close().await();
        }
        vertx.close().await();
    }

    private static RawHttp http(SwitchboardApp a) {
        return new RawHttp(local(a));
    }

    /** The server listens on all interfaces; the test reaches it on loopback. */
    private static String local(SwitchboardApp a) {
        return "http://127.0.0.1:" + java.net.URI.create(a.baseUrl()).getPort();
    }

    @Test
    void everyChatApiPathAnswers401WithoutAnIdentity() {
        RawHttp http = http(app);
        for (String path : new String[] {"/api/chat/me", "/api/chat/channels", "/api/chat/channels/echo/threads",
                "/api/chat/threads/nope", "/api/chat/threads/nope/events"}) {
            RawHttp.Response r = http.get(path, Map.of());
            assertThat(r.status()).as("GET %s", path).isEqualTo(401);
            assertThat(r.header("Content-Type")).startsWith("application/json");
            assertThat(ChatApi.read(r.body()).path("error").asText()).contains("API key");
            assertThat(r.header("WWW-Authenticate")).startsWith("Bearer");
        }
        RawHttp.Response post = http.post("/api/chat/channels/echo/threads",
                Map.of("Content-Type", "application/json", "Origin", http.ownOrigin()), ChatApi.body("anonymous post", null));
        assertThat(post.status()).isEqualTo(401);
        assertThat(threads(http, KEY)).noneMatch(t -> t.path("title").asText().equals("anonymous post"));
    }

    @Test
    void aWrongKeyIsRefused() {
        RawHttp.Response r = http(app).get("/api/chat/me", Map.of("Authorization", "Bearer not-the-key"));
        assertThat(r.status()).isEqualTo(401);
    }

    @Test
    void forwardedUserHeadersFromAnUntrustedAddressAreNotBelieved() {
        RawHttp.Response r = http(app).get("/api/chat/me", Map.of("X-Forwarded-User", "mallory",
                "X-Forwarded-Email", "mallory@example.com"));
        assertThat(r.status()).isEqualTo(401);
        // and with a key, the key names the actor, not the header
        RawHttp.Response keyed = http(app).get("/api/chat/me", Map.of("Authorization", "Bearer " + KEY,
                "X-Forwarded-User", "mallory"));
        assertThat(keyed.status()).isEqualTo(200);
        assertThat(ChatApi.read(keyed.body()).path("id").asText()).isEqualTo("ci-bot");
    }

    @Test
    void anApiKeyIsAnIdentityAndNamesTheAuthor() {
        RawHttp http = http(app);
        Map<String, String> key = Map.of("Authorization", "Bearer " + KEY);
        RawHttp.Response me = http.get("/api/chat/me", key);
        assertThat(me.status()).isEqualTo(200);
        assertThat(ChatApi.read(me.body()).path("id").asText()).isEqualTo("ci-bot");

        // a script with a key sends neither Origin nor Sec-Fetch-Site: a key cannot come from another site
        RawHttp.Response created = http.post("/api/chat/channels/echo/threads",
                Map.of("Authorization", "Bearer " + KEY, "Content-Type", "application/json"), ChatApi.body("hello", null));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String threadId = ChatApi.read(created.body()).path("threadId").asText();
        JsonNode thread = ChatApi.read(http.get("/api/chat/threads/" + threadId, key).body());
        assertThat(thread.path("posts").get(0).path("author").path("id").asText()).isEqualTo("ci-bot");
    }

    @Test
    void aTrustedProxysUserIsBelievedButNeedsTheOriginOnPosts() {
        RawHttp http = http(proxied);
        Map<String, String> grace = Map.of("X-Forwarded-User", "grace", "X-Forwarded-Email", "grace@example.com");
        RawHttp.Response me = http.get("/api/chat/me", grace);
        assertThat(me.status()).isEqualTo(200);
        assertThat(ChatApi.read(me.body()).path("email").asText()).isEqualTo("grace@example.com");

        // a browser behind the proxy sends Origin; without it (nor Sec-Fetch-Site, nor a key) a POST is refused
        RawHttp.Response bare = http.post("/api/chat/channels/echo/threads",
                with(grace, "Content-Type", "application/json"), ChatApi.body("hi", null));
        assertThat(bare.status()).isEqualTo(403);
        RawHttp.Response browser = http.post("/api/chat/channels/echo/threads",
                with(with(grace, "Content-Type", "application/json"), "Origin", http.ownOrigin()), ChatApi.body("hi", null));
        assertThat(browser.status()).as(browser.body()).isEqualTo(201);

        // no proxy header, no key: nobody
        assertThat(http.get("/api/chat/me", Map.of()).status()).isEqualTo(401);
    }

    @Test
    void thePageLoadsWithoutAnIdentityAndAsksForAKey() {
        RawHttp.Response page = http(app).get("/", Map.of());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("app.js");
        // the page's script is app.js and the modules it imports: together they send the key, kept in this tab only
        assertThat(scripts(http(app), "app.js")).contains("Authorization").contains("sessionStorage")
                .doesNotContain("new EventSource");
    }

    /** The text of {@code entry} and of every module it imports, directly or not, as the server serves them. */
    private static String scripts(RawHttp http, String entry) {
        StringBuilder all = new StringBuilder();
        java.util.Set<String> seen = new java.util.LinkedHashSet<>(java.util.List.of(entry));
        java.util.Deque<String> next = new java.util.ArrayDeque<>(seen);
        while (!next.isEmpty()) {
            RawHttp.Response js = http.get("/" + next.pop(), Map.of());
            assertThat(js.status()).isEqualTo(200);
            all.append(js.body()).append('\n');
            java.util.regex.Matcher imports = java.util.regex.Pattern.compile("from '\\./([\\w-]+\\.js)'").matcher(js.body());
            while (imports.find()) {
                if (seen.add(imports.group(1))) {
                    next.add(imports.group(1));
                }
            }
        }
        return all.toString();
    }

    @Test
    void anInsecureServerIsOpenLikeALoopbackOne() {
        // the operator's explicit choice (and the demo's --host 0.0.0.0 --insecure): anyone is the default user
        RawHttp http = http(insecure);
        RawHttp.Response me = http.get("/api/chat/me", Map.of());
        assertThat(me.status()).isEqualTo(200);
        assertThat(ChatApi.read(me.body()).path("id").asText()).isEqualTo("local");
        // still no cross-site posts
        assertThat(http.post("/api/chat/channels/echo/threads", Map.of("Content-Type", "application/json",
                "Origin", "http://evil.example"), ChatApi.body("forged", null)).status()).isEqualTo(403);
    }

    private static java.util.List<JsonNode> threads(RawHttp http, String key) {
        JsonNode list = ChatApi.read(http.get("/api/chat/channels/echo/threads",
                Map.of("Authorization", "Bearer " + key)).body()).path("threads");
        java.util.List<JsonNode> out = new java.util.ArrayList<>();
        list.forEach(out::add);
        return out;
    }

    static Map<String, String> with(Map<String, String> headers, String name, String value) {
        Map<String, String> h = new java.util.LinkedHashMap<>(headers);
        h.put(name, value);
        return h;
    }
}
