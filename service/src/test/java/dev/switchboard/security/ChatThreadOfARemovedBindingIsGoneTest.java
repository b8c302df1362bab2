package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread whose Binding was removed from the configuration (restart with a new file) cannot take messages:
 * the caller is told so (410), not handed a 500.
 */
@ServerTest
class ChatThreadOfARemovedBindingIsGoneTest {

    @TempDir
    Path dir;

    @Test
    void aMessageToSuchAThreadIsAnswered410() throws Exception {
        Vertx vertx = Vertx.vertx();
        TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        Path store = dir.resolve("db");
        try {
            SwitchboardApp first = SwitchboardFixture.builder().vertx(vertx)
                    .yaml(ConfigYaml.server(store, "").webBackend("echo", agent.url(), null)
                    .webBackend("other", agent.url(), null)).start().app();
            ChatApi chat = new ChatApi(first.baseUrl());
            ChatApi.Sent sent = chat.newThread("echo", "hello");
            chat.awaitPosts(sent.threadId(), "the first turn ends", Duration.ofSeconds(30),
                    posts -> posts.stream().anyMatch(p -> p.isUser() && ChatApi.FINAL.contains(p.state())));
            first.close().await();

            SwitchboardApp second = SwitchboardFixture.builder().vertx(vertx)
                    .yaml(ConfigYaml.server(store, "").webBackend("other", agent.url(), null)).start().app();
            try {
                HttpResponse<String> r = new ChatApi(second.baseUrl())
                        .trySend("/api/chat/threads/" + sent.threadId() + "/messages", "still there?", null);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(410);
                assertThat(ChatApi.read(r.body()).path("error").asText()).contains("no longer bound");
            } finally {
                second.close().await();
            }
        } finally {
            agent.close().await();
            vertx.close().await();
        }
    }
}
