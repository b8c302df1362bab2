package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.demo.DemoAgents;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, point 11: what the demo tells a newcomer to type works as written. Each hint of each demo
 * channel's description ("Try /ask, /stream 5 200, /fail") is typed into the web chat; the question /ask
 * raises is answered; every turn ends. Before, {@code /ask} and {@code /fail} alone were malformed
 * directives and the thread showed "retrying" for fifteen minutes.
 */
@ServerTest
class DemoHintsWorkTest {

    private static final Pattern HINTS = Pattern.compile("Try (.+)$");
    private static final Duration TURN = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    static Vertx vertx;
    static SwitchboardApp app;
    static ChatApi chat;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        app = DemoAgents.startDemo(vertx, "127.0.0.1", 0, "sqlite:" + dir.resolve("demo.db")).await();
        chat = new ChatApi(app.baseUrl());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        vertx.close().await();
    }

    @Test
    void everyHintOfEveryDemoChannelEndsItsTurn() {
        List<String> tried = new ArrayList<>();
        for (DemoAgents.Agent agent : DemoAgents.AGENTS) {
            List<String> hints = new ArrayList<>(hints(agent.description()));
            hints.add("hello"); // and a plain message, on every channel
            for (String hint : hints) {
                Sent sent = chat.newThread(agent.name(), hint);
                Post end = endOf(sent);
                assertThat(end.state()).as("'%s' in #%s", hint, agent.name()).isIn(expected(hint));
                tried.add(agent.name() + ": " + hint);
            }
        }
        assertThat(tried).contains("echo: /ask", "echo: /stream 5 200", "echo: /fail");
    }

    @Test
    void aMistypedDirectiveEndsItsTurnAtOnce() {
        // the testkit rejects the task naming the problem: no quarter of an hour of "retrying"
        Sent sent = chat.newThread("echo", "/slow soon");
        assertThat(chat.awaitFinal(sent).state()).isEqualTo("rejected");
    }

    /** Waits for the turn to end, answering a question when one is asked. */
    private static Post endOf(Sent sent) {
        List<Post> posts = chat.awaitPosts(sent.threadId(), "turn " + sent.messageId() + " to end or ask", TURN,
                p -> p.stream().anyMatch(x -> x.kind().equals("question") || ended(x, sent)));
        if (posts.stream().anyMatch(x -> x.kind().equals("question")) && posts.stream().noneMatch(x -> ended(x, sent))) {
            chat.send(sent.threadId(), "blue");
        }
        return chat.awaitFinal(sent);
    }

    private static boolean ended(Post p, Sent sent) {
        return p.isUser() && p.id().equals(sent.messageId()) && ChatApi.FINAL.contains(p.state());
    }

    /** /fail fails the task, as it says; everything else completes. */
    private static List<String> expected(String hint) {
        return hint.startsWith("/fail") ? List.of("failed") : List.of("completed");
    }

    static List<String> hints(String description) {
        Matcher m = HINTS.matcher(description);
        return m.find() ? Arrays.stream(m.group(1).split(",\\s*")).map(String::strip).toList() : List.of();
    }
}
