package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, H1: a web-chat caller chooses its message's {@code messageId}, but the post ids the bridge derives (a
 * turn's answer post {@code answer-<turn>}, a trigger's turn, another thread's message) are never that caller's to
 * take. A new thread posted with {@code messageId: "answer-<the victim's message id>"} the moment the victim's
 * message appears used to receive the victim's answer: the victim never saw it.
 */
@ServerTest
class AnswersCannotBeTakenOverByAChosenMessageIdTest {

    @TempDir
    Path dir;
    Vertx vertx;
    TestAgent agent;
    SwitchboardApp app;

    @AfterEach
    void stop() {
        TestServers.stop(app, agent, vertx);
    }

    private ConfigYaml config() {
        return ConfigYaml.server(dir.resolve("chat.db"), "").webBackend("echo", agent.url(), null);
    }

    @Test
    void aThreadNamedAfterAnAnswerPostDoesNotReceiveTheAnswer() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx).yaml(config()).start().app();
        ChatApi chat = new ChatApi(app.baseUrl());

        // the agent works a while on the victim's message: long enough for the attacker to see it and act
        ChatApi.Sent victim = chat.newThread("echo", "/slow 1500\nthe victim's secret plan", "victim-1", Map.of());
        ChatApi.Sent attacker = chat.newThread("echo", "mine now", "answer-" + victim.messageId(), Map.of());
        assertThat(attacker.threadId()).isNotEqualTo(victim.threadId());

        ChatApi.Post done = chat.awaitFinal(victim);
        assertThat(done.state()).isEqualTo("completed");
        assertThat(chat.answer(victim.threadId(), victim.messageId())).as("the victim sees the answer")
                .contains("the victim's secret plan");
        chat.awaitFinal(attacker);
        assertThat(chat.posts(attacker.threadId())).as("the attacker's thread shows only its own turn")
                .noneMatch(p -> p.text() != null && p.text().contains("secret plan"));

        // nor can a caller pick another thread's message, nor a trigger's: a chosen id is a key of its own thread
        ChatApi.Sent sameKeyElsewhere = chat.send(attacker.threadId(), "a reply", victim.messageId(), Map.of());
        assertThat(sameKeyElsewhere.messageId()).isNotEqualTo(victim.messageId());
        assertThat(sameKeyElsewhere.messageId()).doesNotStartWith("answer-").doesNotStartWith("trigger-")
                .doesNotStartWith("slack-");
        chat.awaitFinal(sameKeyElsewhere);
        assertThat(chat.posts(victim.threadId())).as("the victim's thread is the victim's alone")
                .noneMatch(p -> "a reply".equals(p.text()) || "mine now".equals(p.text()));
    }

    /** B3/B7/B14: the messageId the agent is sent is fixed per chat message, also when the POST is retried after a restart. */
    @Test
    void aRetriedMessageIsTheSameMessageAndTheAgentSeesOneMessageId() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx).yaml(config()).start().app();
        ChatApi chat = new ChatApi(app.baseUrl());

        ChatApi.Sent first = chat.newThread("echo", "hello", "key-1", Map.of());
        assertThat(chat.newThread("echo", "hello", "key-1", Map.of())).isEqualTo(first);
        chat.awaitFinal(first);
        ChatApi.Sent reply = chat.send(first.threadId(), "and again", "key-2", Map.of());
        chat.awaitFinal(reply);

        app.close().await();
        app = SwitchboardFixture.builder().vertx(vertx).yaml(config()).start().app();
        chat = new ChatApi(app.baseUrl());
        assertThat(chat.newThread("echo", "hello", "key-1", Map.of())).as("the first message, after a restart").isEqualTo(first);
        assertThat(chat.send(first.threadId(), "and again", "key-2", Map.of())).isEqualTo(reply);

        List<String> sent = agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend)
                .map(RecordedRequest::messageId).toList();
        assertThat(sent).as("each message reached the agent once, under the id the chat shows")
                .containsExactly(first.messageId(), reply.messageId());
        assertThat(chat.posts(first.threadId())).filteredOn(ChatApi.Post::isUser).hasSize(2);
    }

    @Test
    void theSameKeyInTwoChannelsOpensTwoThreads() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(config().webBackend("other", agent.url(), null)).start().app();
        ChatApi chat = new ChatApi(app.baseUrl());

        ChatApi.Sent here = chat.newThread("echo", "hello", "key-1", Map.of());
        ChatApi.Sent there = chat.newThread("other", "hello", "key-1", Map.of());
        assertThat(there.threadId()).isNotEqualTo(here.threadId());
        assertThat(there.messageId()).isNotEqualTo(here.messageId());
        chat.awaitFinal(here);
        chat.awaitFinal(there);
        assertThat(chat.answer(here.threadId(), here.messageId())).contains("hello");
        assertThat(chat.answer(there.threadId(), there.messageId())).contains("hello");
    }
}
