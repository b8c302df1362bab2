package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.SessionDriver;
import dev.switchboard.bridge.store.ChatStore;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 through the web chat. Lean writes: a streamed chunk updates its answer post and does not rewrite the
 * session, so a turn writes its session as often with 16 chunks as with 2. Bounded memory: with a short
 * {@code sessionIdleTimeout}, threads that finished leave every per-thread map of the driver, and a repeated
 * message to one of them (B7) is still the post already accepted, found in the store.
 */
@ServerTest
class LeanWritesAndBoundedMemoryTest {

    /** enough words for 16 chunks */
    private static final String TEXT = IntStream.rangeClosed(1, 40).mapToObj(i -> "word" + i)
            .collect(Collectors.joining(" "));

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent few;
    static TestAgent many;
    static TestAgent echo;
    static SwitchboardApp app;
    static ChatApi chat;
    static ChatStore store;
    static SessionDriver driver;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        few = TestAgent.start(vertx, TestAgentOptions.echo("few").withDefaultBehavior("/stream 2 10"), 0).await();
        many = TestAgent.start(vertx, TestAgentOptions.echo("many").withDefaultBehavior("/stream 16 10"), 0).await();
        echo = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("db"), "bridge: {sessionIdleTimeout: 200ms}")
                .webBackend("few", few.url(), null)
                .webBackend("many", many.url(), null)
                .webBackend("echo", echo.url(), null)).start().app();
        chat = new ChatApi(app.baseUrl());
        store = app.bridge().store();
        driver = app.bridge().driver();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        for (TestAgent a : new TestAgent[] {few, many, echo}) {
            if (a != null) {
                a.close().await();
            }
        }
        vertx.close().await();
    }

    @Test
    void aStreamedChunkDoesNotRewriteTheSession() {
        // the first turn of each fetches the card; the compared turns are the second ones
        long withFew = sessionWritesOfASecondTurn("few");
        long withMany = sessionWritesOfASecondTurn("many");
        // before issue 9's change, every chunk wrote the session: 14 more; a timer set again can add one either way
        assertThat(withMany).as("session writes of a turn streamed in 16 chunks vs in 2 (%d)", withFew)
                .isBetween(withFew - 1, withFew + 1);
    }

    private long sessionWritesOfASecondTurn(String channel) {
        Sent first = chat.newThread(channel, "hello");
        assertThat(chat.awaitFinal(first).state()).isEqualTo("completed");
        // a turn shows its outcome before its last steps (the stream's end, the task read to settle it) are done:
        // the thread leaving memory says they all are
        awaitForgotten(first.threadId());
        long before = store.sessionWrites();
        Sent second = chat.send(first.threadId(), TEXT);
        assertThat(chat.awaitFinal(second).state()).isEqualTo("completed");
        awaitForgotten(first.threadId());
        long writes = store.sessionWrites() - before;
        // the answer is whole: every chunk reached the post
        assertThat(chat.answer(first.threadId(), second.messageId())).contains("word1 ").contains("word40");
        return writes;
    }

    private static void awaitForgotten(String threadId) {
        Awaitility.await("the thread is forgotten").atMost(Duration.ofSeconds(30)).until(() -> !driver.inMemory(threadId));
    }

    @Test
    void finishedThreadsLeaveTheDriversMemoryEntirely() {
        int n = 20;
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sent.add(chat.newThread("echo", "thread " + i));
        }
        for (Sent s : sent) {
            assertThat(chat.awaitFinal(s).state()).isEqualTo("completed");
        }
        Awaitility.await("every finished thread is forgotten").atMost(Duration.ofSeconds(30))
                .until(() -> sent.stream().noneMatch(s -> driver.inMemory(s.threadId())));
        Awaitility.await("the driver holds no thread at all").atMost(Duration.ofSeconds(30))
                .until(() -> driver.threadsInMemory() == 0);

        // B7 after the session left memory: a repeated message is the post already accepted, not a second turn
        Sent again = chat.send(sent.get(0).threadId(), "thread 0", sent.get(0).messageId(), Map.of());
        assertThat(again.messageId()).isEqualTo(sent.get(0).messageId());
        Awaitility.await("no second run").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                .until(() -> echo.recorder().requests().stream().filter(RecordedRequest::isSend)
                        .filter(r -> r.messageId().equals(sent.get(0).messageId())).count() == 1);
        assertThat(chat.posts(sent.get(0).threadId())).filteredOn(ChatApi.Post::isUser).hasSize(1);
    }
}
