package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi.Sent;
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
 * Issue 8, errors: bad input is the caller's mistake, answered 4xx in the chat's own words — never a 500,
 * never a parser's or an exception's text (which tells an attacker what runs inside).
 */
@ServerTest
class ChatErrorsTellNoInternalsTest {

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent agent;
    static SwitchboardApp app;
    static RawHttp http;
    static ChatApi chat;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("db"), "").webBackend("echo", agent.url(), null)).start().app();
        http = new RawHttp(app.baseUrl());
        chat = new ChatApi(app.baseUrl());
    }

    @AfterAll
    static void stop() {
        TestServers.stop(app, agent, vertx);
    }

    @Test
    void badBodiesAreRefusedInOurOwnWords() {
        Map<String, String> bodies = new LinkedHashMap<>();
        bodies.put("{", "body: not valid JSON");
        bodies.put("{\"text\": \"unterminated", "body: not valid JSON");
        bodies.put("[" .repeat(5000) + "]".repeat(5000), "body: not valid JSON");
        bodies.put("{\"text\": \"a\", \"text\": }", "body: not valid JSON");
        bodies.put("[]", "body: a JSON object");
        bodies.put("\"text\"", "body: a JSON object");
        bodies.put("{\"text\": 5}", "text: a non-empty string");
        bodies.put("{\"text\": \"   \"}", "text: a non-empty string");
        bodies.put("{\"text\": \"x\", \"messageId\": 12}", "messageId: 1-128");
        bodies.put("{\"text\": \"x\", \"messageId\": \"a b\"}", "messageId: 1-128");
        bodies.put("{\"text\": \"" + "x".repeat(33 * 1024) + "\"}", "text: longer than");
        for (var e : bodies.entrySet()) {
            for (String path : new String[] {"/api/chat/channels/echo/threads", "/api/chat/threads/nope/messages"}) {
                RawHttp.Response r = post(path, e.getKey());
                String what = "POST " + path + " " + abbreviated(e.getKey());
                assertThat(r.status()).as(what).isEqualTo(400);
                assertThat(ChatApi.read(r.body()).path("error").asText()).as(what).startsWith(e.getValue());
                assertNoInternals(r, what);
            }
        }
    }

    @Test
    void oversizedUnknownAndConflictingRequestsAreNo500s() {
        RawHttp.Response huge = post("/api/chat/channels/echo/threads", "{\"text\": \"" + "x".repeat(80 * 1024) + "\"}");
        assertThat(huge.status()).isEqualTo(413);
        assertThat(ChatApi.read(huge.body()).path("error").asText()).isEqualTo("body: larger than 64 KiB");
        assertNoInternals(huge, "huge body");

        for (String path : new String[] {"/api/chat/nothing", "/api/chat/threads/" + "x".repeat(2000),
                "/api/chat/channels/nope/threads", "/api/chat/threads/%00/events", "/api/chat/threads/..%2F..%2Fetc"}) {
            RawHttp.Response r = http.get(path, Map.of());
            assertThat(r.status()).as("GET %s", path).isBetween(400, 499);
            assertNoInternals(r, "GET " + path);
        }

        // a messageId another message or an agent post has: only a key of this thread's, a message of its own (issue
        // 22: it used to be refused, 409, and before that to echo the exception's text)
        Sent first = chat.newThread("echo", "first", "m-taken", Map.of());
        chat.awaitFinal(first); // its answer post is written
        Sent other = chat.newThread("echo", "other");
        for (String body : new String[] {ChatApi.body("again", "m-taken"), ChatApi.body("again", "answer-m-taken"),
                ChatApi.body("again", first.messageId()), ChatApi.body("again", "answer-" + first.messageId())}) {
            RawHttp.Response r = post("/api/chat/threads/" + other.threadId() + "/messages", body);
            assertThat(r.status()).as(body).isEqualTo(201);
            assertThat(ChatApi.read(r.body()).path("messageId").asText()).isNotEqualTo(first.messageId());
            assertNoInternals(r, body);
        }
        RawHttp.Response agentPostId = post("/api/chat/channels/echo/threads", ChatApi.body("x", "answer-" + first.messageId()));
        assertThat(agentPostId.status()).isEqualTo(201);
        assertNoInternals(agentPostId, "new thread with an agent post's id");

        // odd but valid text is a message like any other
        RawHttp.Response odd = post("/api/chat/threads/" + first.threadId() + "/messages",
                "{\"text\": \"nul \\u0000 and a lone \\ud800 surrogate\"}");
        assertThat(odd.status()).as(odd.body()).isEqualTo(201);
    }

    private static RawHttp.Response post(String path, String body) {
        return http.post(path, Map.of("Content-Type", "application/json"), body);
    }

    private static void assertNoInternals(RawHttp.Response r, String what) {
        assertThat(r.body()).as(what).doesNotContainIgnoringCase("exception").doesNotContainIgnoringCase("jackson")
                .doesNotContain("at [Source").doesNotContain("java.").doesNotContain("Caused by");
    }

    private static String abbreviated(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }
}
