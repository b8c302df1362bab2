package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.SessionDriver;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, bounds: every thread anyone ever wrote in would stay in the driver's memory. With
 * {@code bridge.sessionIdleTimeout: 300ms}, a session with nothing in flight is dropped from memory after
 * that; its next message loads it from the store and carries on in the same context. A session with a
 * turn still running is never dropped.
 */
@ServerTest
class BridgeForgetsIdleSessionsTest {

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent echo;
    static TestAgent slow;
    static SwitchboardApp app;
    static ChatApi chat;
    static SessionDriver driver;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        echo = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        slow = TestAgent.start(vertx, TestAgentOptions.echo("slow").withDefaultBehavior("/slow 8000"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("db"), "bridge: {sessionIdleTimeout: 300ms}")
                .webBackend("echo", echo.url(), null)
                .webBackend("slow", slow.url(), null)).start().app();
        chat = new ChatApi(app.baseUrl());
        driver = app.bridge().driver();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        for (TestAgent a : new TestAgent[] {echo, slow}) {
            if (a != null) {
                a.close().await();
            }
        }
        vertx.close().await();
    }

    @Test
    void anIdleSessionLeavesMemoryAndComesBackFromTheStore() {
        Sent first = chat.newThread("echo", "remember me");
        assertThat(chat.awaitFinal(first).state()).isEqualTo("completed");
        Awaitility.await("the idle session is forgotten").atMost(Duration.ofSeconds(30))
                .until(() -> !threadInMemory(first.threadId()));

        Sent second = chat.send(first.threadId(), "still there?");
        assertThat(chat.awaitFinal(second).state()).isEqualTo("completed");
        List<RecordedRequest> sends = echo.recorder().requests().stream().filter(RecordedRequest::isSend)
                .filter(r -> r.messageId().equals(first.messageId()) || r.messageId().equals(second.messageId())).toList();
        assertThat(sends).hasSize(2);
        assertThat(sends.get(0).contextId()).as("a thread's first turn has no context yet").isNull();
        assertThat(sends.get(1).contextId()).as("the reloaded session kept the agent's context").isNotBlank();
        assertThat(chat.notices(first.threadId(), second.messageId())).isEmpty();
    }

    @Test
    void aSessionWithARunningTurnStaysInMemory() {
        Sent sent = chat.newThread("slow", "take your time");
        chat.awaitState(sent, "running");
        // far past the idle timeout, the turn is still running and its session is held
        Awaitility.await("the running session is kept").during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(30))
                .until(() -> threadInMemory(sent.threadId()));
        assertThat(chat.userPost(sent.threadId(), sent.messageId()).state()).isEqualTo("running");
        assertThat(chat.awaitFinal(sent).state()).isEqualTo("completed");
        Awaitility.await("then it is forgotten").atMost(Duration.ofSeconds(30)).until(() -> !threadInMemory(sent.threadId()));
    }

    private static boolean threadInMemory(String threadId) {
        return driver.inMemory(threadId);
    }
}
