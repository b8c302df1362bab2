package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.engine.Engine;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, bounds: an agent cannot fill the store and every watcher's browser with an endless answer. With
 * {@code bridge.maxAnswerChars: 50}, the answer shows its first 50 characters and a note saying where it was
 * cut; the chunks appended after the cap change nothing, and the turn still ends.
 */
@ServerTest
class ThreadCutsOversizedAnswersTest {

    private static final int MAX = 50;

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent streaming;
    static TestAgent whole;
    static SwitchboardApp app;
    static ChatApi chat;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        // the echo in 8 appended chunks, and in one artifact
        streaming = TestAgent.start(vertx, TestAgentOptions.echo("chunks").withDefaultBehavior("/stream 8 20"), 0).await();
        whole = TestAgent.start(vertx, TestAgentOptions.echo("whole"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("db"), "bridge: {maxAnswerChars: " + MAX + "}")
                .webBackend("chunks", streaming.url(), null)
                .webBackend("whole", whole.url(), null)).start().app();
        chat = new ChatApi(app.baseUrl());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        for (TestAgent a : new TestAgent[] {streaming, whole}) {
            if (a != null) {
                a.close().await();
            }
        }
        vertx.close().await();
    }

    @Test
    void aLongStreamedAnswerIsCutWithANote() {
        assertCut("chunks");
    }

    @Test
    void aLongSingleArtifactIsCutWithANote() {
        assertCut("whole");
    }

    @Test
    void anAnswerWithinTheCapIsShownWhole() {
        Sent sent = chat.newThread("whole", "hi");
        assertThat(chat.awaitFinal(sent).state()).isEqualTo("completed");
        String answer = chat.answer(sent.threadId(), sent.messageId());
        assertThat(answer).endsWith("hi").doesNotContain("answer cut");
    }

    private static void assertCut(String channel) {
        String text = "0123456789".repeat(30);
        Sent sent = chat.newThread(channel, text);
        assertThat(chat.awaitFinal(sent).state()).isEqualTo("completed");
        // the testkit echoes what follows the bridge's "[Web: …]" line: the text as typed
        String answer = chat.answer(sent.threadId(), sent.messageId());
        assertThat(answer).isEqualTo(text.substring(0, MAX) + Engine.cutNote(MAX));
        assertThat(answer).endsWith("… (answer cut at 50 characters)");
    }
}
