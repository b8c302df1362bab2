package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, bounds: one thread cannot pile up turns without end behind a task that does not finish. With
 * {@code bridge.maxQueuedTurns: 2}, the third message waiting is refused with 429 and a JSON error, and
 * nothing of it is written; a retry of a message already taken is still the same message (201).
 */
@ServerTest
class ThreadRefusesTooManyQueuedTurnsTest {

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent agent;
    static SwitchboardApp app;
    static ChatApi chat;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        // every turn runs for a minute: the first holds the thread, the rest queue behind it
        agent = TestAgent.start(vertx, TestAgentOptions.echo("slow").withDefaultBehavior("/slow 60000"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("db"), "bridge: {maxQueuedTurns: 2}")
                .webBackend("slow", agent.url(), null)).start().app();
        chat = new ChatApi(app.baseUrl());
    }

    @AfterAll
    static void stop() {
        TestServers.stop(app, agent, vertx);
    }

    @Test
    void theMessageBeyondTheQueueIsRefusedWith429AndNotWritten() {
        Sent first = chat.newThread("slow", "first");
        chat.awaitState(first, "running");
        Sent second = chat.send(first.threadId(), "second", "m-second", Map.of());
        chat.send(first.threadId(), "third", "m-third", Map.of());
        chat.awaitState(second, "queued");

        HttpResponse<String> refused = chat.post("/api/chat/threads/" + first.threadId() + "/messages",
                ChatApi.body("fourth", "m-fourth"), Map.of());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        assertThat(ChatApi.read(refused.body()).path("error").asText()).contains("2 messages waiting");
        assertThat(chat.posts(first.threadId())).extracting(ChatApi.Post::text).doesNotContain("fourth");

        // a client retrying a message that was taken gets it back, queue full or not
        HttpResponse<String> retried = chat.post("/api/chat/threads/" + first.threadId() + "/messages",
                ChatApi.body("third", "m-third"), Map.of());
        assertThat(retried.statusCode()).isEqualTo(201);

        // another thread has a queue of its own
        Sent other = chat.newThread("slow", "elsewhere");
        chat.send(other.threadId(), "queued elsewhere");
    }
}
