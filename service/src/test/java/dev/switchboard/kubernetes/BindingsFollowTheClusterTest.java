package dev.switchboard.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watch mode, Bindings: a Binding created in the cluster opens its web chat channel, where turns work; deleted, the
 * channel is gone, its threads refuse new messages, and a turn still running ends at once with a notice saying why.
 */
class BindingsFollowTheClusterTest {

    @TempDir
    Path dir;

    Vertx vertx;
    Cluster cluster;
    TestAgent agent;
    ChatApi chat;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        cluster = new Cluster();
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: echo}
                spec:
                  url: %s
                """.formatted(agent.url()));
        chat = new ChatApi(cluster.start(vertx, dir).app().baseUrl());
        cluster.awaitReady("AgentBackend", "echo", "True");
    }

    @AfterEach
    void stop() {
        cluster.close();
        agent.close().await();
        vertx.close().await();
    }

    @Test
    void aBindingAddedOpensItsChannelAndRemovedClosesIt() throws Exception {
        assertThat(channelNames()).doesNotContain("ops");

        cluster.apply(binding());
        cluster.awaitReady("Binding", "ops", "True");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("channel ops appears")
                .until(() -> channelNames().contains("ops"));
        ChatApi.Sent sent = chat.newThread("ops", "hello");
        ChatApi.Post done = chat.awaitFinal(sent);
        assertThat(done.state()).isEqualTo("completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).contains("hello");

        cluster.delete("Binding", "ops");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("channel ops disappears")
                .until(() -> !channelNames().contains("ops"));
        HttpResponse<String> newThread = chat.post("/api/chat/channels/ops/threads", ChatApi.body("more", null),
                java.util.Map.of());
        assertThat(newThread.statusCode()).as(newThread.body()).isEqualTo(404);
        HttpResponse<String> inThread = chat.trySend("/api/chat/threads/" + sent.threadId() + "/messages", "more", null);
        assertThat(inThread.statusCode()).as(inThread.body()).isEqualTo(410);
    }

    @Test
    void aTurnRunningWhenItsBindingIsRemovedEndsWithANotice() {
        cluster.apply(binding());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("channel ops appears")
                .until(() -> channelNames().contains("ops"));
        // the agent takes the task and works on it for a minute
        ChatApi.Sent sent = chat.newThread("ops", "/slow 60000");
        chat.awaitState(sent, "running");

        cluster.delete("Binding", "ops");
        ChatApi.Post ended = chat.awaitFinal(sent);
        assertThat(ended.state()).isEqualTo("failed");
        assertThat(chat.notices(sent.threadId(), sent.messageId())).contains(Notices.BINDING_REMOVED);
    }

    private List<String> channelNames() {
        List<String> names = new ArrayList<>();
        for (JsonNode c : chat.channels().path("channels")) {
            names.add(c.path("name").asText());
        }
        return names;
    }

    private static String binding() {
        return """
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: ops}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: web, channels: [ops]}
                  identity: {userId: alice}
                """;
    }
}
