package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.RawHttp;
import dev.switchboard.store.Database;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, M1: the web chat shows only the web platform's threads. A Slack thread (a private channel, a DM) kept in
 * the same store is not the web chat's to show, to a web user who learnt its id: reading it, or watching its events,
 * is answered as for a thread that does not exist, so that the answer does not even say it exists.
 */
@ServerTest
class WebChatCannotReadSlackThreadsTest {

    private static final String SLACK_THREAD = "slack:D0PRIVATE1:1717000000.000100";

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
    void aSlackThreadIsNotFoundThroughTheWebChat() {
        Path store = dir.resolve("chat.db");
        // a DM with the Slack app, as the Slack platform keeps it in the shared store
        try (Database db = Database.open("sqlite:" + store)) {
            Instant now = Instant.now();
            ChatStore chats = new ChatStore(db.dataSource());
            chats.createThread(new ChatThread(SLACK_THREAD, Platform.SLACK, "D0PRIVATE1", "slack-sre", "payroll for March", now, now));
        }
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(store, "").webBackend("echo", agent.url(), null)).start().app();
        ChatApi chat = new ChatApi(app.baseUrl());
        RawHttp http = new RawHttp(app.baseUrl());
        ChatApi.Sent web = chat.newThread("echo", "hello");
        assertThat(chat.get("/api/chat/threads/" + web.threadId()).path("threadId").asText()).isEqualTo(web.threadId());

        String missing = "slack:D0PRIVATE1:1717000000.000999";
        for (String suffix : new String[] {"", "/events"}) {
            RawHttp.Response slack = http.get("/api/chat/threads/" + SLACK_THREAD + suffix, Map.of());
            RawHttp.Response none = http.get("/api/chat/threads/" + missing + suffix, Map.of());
            assertThat(slack.status()).as("GET the Slack thread%s: %s", suffix, slack.body()).isEqualTo(404);
            assertThat(slack.body()).doesNotContain("payroll").doesNotContain("D0PRIVATE1\",");
            assertThat(slack.body().replace(SLACK_THREAD, "ID")).as("told as a missing thread is")
                    .isEqualTo(none.body().replace(missing, "ID"));
        }
    }
}
