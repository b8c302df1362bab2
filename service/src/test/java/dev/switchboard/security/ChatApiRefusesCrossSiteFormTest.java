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
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, cross-site request forgery: another site's page in the user's browser must not post into the
 * chat as the user, even on a loopback-only server where the user needs no key. A POST must be JSON (415)
 * and come from the chat's own origin (403); a cross-site form can do neither.
 */
@ServerTest
class ChatApiRefusesCrossSiteFormTest {

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent agent;
    static SwitchboardApp app;
    static RawHttp http;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("db"), "").webBackend("echo", agent.url(), null)).start().app();
        http = new RawHttp(app.baseUrl());
    }

    @AfterAll
    static void stop() {
        TestServers.stop(app, agent, vertx);
    }

    @Test
    void aCrossSiteTextPlainFormPostIsRefusedAndWritesNothing() {
        // what <form enctype="text/plain" action="http://127.0.0.1:8080/api/chat/channels/echo/threads"> sends
        String form = "{\"text\":\"forged\",\"x\":\"=\"}";
        RawHttp.Response r = http.post("/api/chat/channels/echo/threads", Map.of("Content-Type", "text/plain",
                "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"), form);
        assertThat(r.status()).isEqualTo(403);
        assertThat(ChatApi.read(r.body()).path("error").asText()).contains("cross-site");
        assertThat(titles()).doesNotContain("forged");
    }

    @Test
    void aCrossSiteJsonPostIsRefused() {
        for (Map<String, String> headers : java.util.List.of(
                Map.of("Origin", "http://evil.example"),
                Map.of("Origin", "null"),
                Map.of("Origin", "http://127.0.0.1:1"), // same host, another port: another origin
                Map.of("Origin", "https://" + http.ownHost()), // another scheme
                Map.of("Sec-Fetch-Site", "cross-site"),
                Map.of("Sec-Fetch-Site", "same-site"))) {
            RawHttp.Response r = http.post("/api/chat/channels/echo/threads", json(headers), ChatApi.body("forged", null));
            assertThat(r.status()).as("POST with %s", headers).isEqualTo(403);
        }
        assertThat(titles()).doesNotContain("forged");
    }

    @Test
    void aPostThatIsNotJsonIsRefusedWith415EvenFromTheOwnPage() {
        for (String type : new String[] {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}) {
            RawHttp.Response r = http.post("/api/chat/channels/echo/threads",
                    Map.of("Content-Type", type, "Origin", http.ownOrigin()), ChatApi.body("not json", null));
            assertThat(r.status()).as("Content-Type %s", type).isEqualTo(415);
        }
        RawHttp.Response none = http.post("/api/chat/channels/echo/threads", Map.of("Origin", http.ownOrigin()),
                ChatApi.body("not json", null));
        assertThat(none.status()).isEqualTo(415);
        assertThat(titles()).doesNotContain("not json");
    }

    @Test
    void theOwnPageAndScriptsOnThisMachinePost() {
        RawHttp.Response page = http.post("/api/chat/channels/echo/threads",
                json(Map.of("Origin", http.ownOrigin(), "Sec-Fetch-Site", "same-origin")), ChatApi.body("from the page", null));
        assertThat(page.status()).as(page.body()).isEqualTo(201);
        RawHttp.Response localhost = http.post("/api/chat/channels/echo/threads",
                json(Map.of("Host", "localhost:" + port(), "Origin", "http://localhost:" + port())),
                ChatApi.body("from localhost", null));
        assertThat(localhost.status()).as(localhost.body()).isEqualTo(201);
        RawHttp.Response fetchMetadataOnly = http.post("/api/chat/channels/echo/threads",
                json(Map.of("Sec-Fetch-Site", "same-origin")), ChatApi.body("fetch metadata", null));
        assertThat(fetchMetadataOnly.status()).isEqualTo(201);
        // curl on a loopback-only server: neither header, no key, and only this machine can connect
        RawHttp.Response curl = http.post("/api/chat/channels/echo/threads", json(Map.of()), ChatApi.body("curl", null));
        assertThat(curl.status()).isEqualTo(201);
        assertThat(titles()).contains("from the page", "from localhost", "fetch metadata", "curl");
    }

    private static int port() {
        return java.net.URI.create(app.baseUrl()).getPort();
    }

    private static Map<String, String> json(Map<String, String> headers) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put("Content-Type", "application/json; charset=utf-8");
        return h;
    }

    private static java.util.List<String> titles() {
        JsonNode list = new ChatApi(app.baseUrl()).get("/api/chat/channels/echo/threads").path("threads");
        java.util.List<String> out = new java.util.ArrayList<>();
        list.forEach(t -> out.add(t.path("title").asText()));
        return out;
    }
}
