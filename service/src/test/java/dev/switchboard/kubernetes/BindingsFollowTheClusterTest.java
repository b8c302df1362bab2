package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static dev.switchboard.kubernetes.FakeCluster.webBinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.testing.ServerTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, Bindings: a Binding created in the cluster opens its web chat channel, where turns work; deleted, the
 * channel is gone, its threads refuse new messages, and a turn still running ends at once with a notice saying why.
 */
@ServerTest
class BindingsFollowTheClusterTest {

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    ChatApi chat;

    @BeforeEach
    void start() {
        cluster.apply(backend("echo", cluster.agent().url()));
        chat = new ChatApi(cluster.start().app().baseUrl());
        cluster.awaitReady("AgentBackend", "echo", "True");
    }

    @Test
    void aBindingAddedOpensItsChannelAndRemovedClosesIt() throws Exception {
        assertThat(channelNames()).doesNotContain("ops");

        cluster.apply(webBinding("ops", "echo"));
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
        cluster.apply(webBinding("ops", "echo"));
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
}
