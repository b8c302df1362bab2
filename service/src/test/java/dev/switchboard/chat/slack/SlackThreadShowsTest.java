package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.SlackCall;
import dev.switchboard.testkit.slack.SlackMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 10, points 4 and 5: what a Slack thread shows, within Slack's rate limits, and how questions are answered.
 * What does not depend on how events arrive runs in both modes.
 */
@ServerTest
class SlackThreadShowsTest {

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    private List<RecordedRequest> sends() {
        return rig.agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void aStreamedAnswerIsOneMessageEditedAboutOnceASecond(String mode) {
        rig = new SlackRig(dir, mode);
        String text = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima";
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/stream 12 200\n" + text, null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("kilo lima")));
        List<SlackMessage> replies = rig.botReplies(m.ts());
        assertThat(replies).as("one message for the whole answer").hasSize(1);
        String ts = replies.get(0).ts();
        List<SlackCall> edits = rig.slack.calls("chat.update").stream().filter(c -> ts.equals(c.param("ts"))).toList();
        assertThat(edits.size()).as("edits coalesce: fewer than the 12 chunks").isLessThan(12);
        for (int i = 1; i < edits.size(); i++) {
            // at least a second apart (a loaded machine only makes the gaps longer); a little slack for clock reads
            assertThat(Duration.between(edits.get(i - 1).at(), edits.get(i).at())).isGreaterThan(Duration.ofMillis(900));
        }
    }

    @Test
    void aLongAnswerContinuesInTheNextMessage() {
        rig = new SlackRig(dir, "events");
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.length() < 7_000; i++) {
            b.append("word").append(i).append(' ');
        }
        String text = b.toString().strip();
        SlackRig.Sent m = rig.mention(SlackRig.ADA, text, null);
        await().until(() -> String.join(" ", rig.botReplies(m.ts()).stream().map(SlackMessage::text).toList())
                .contains(text.substring(text.length() - 40)));
        List<SlackMessage> parts = rig.botReplies(m.ts());
        assertThat(parts).hasSizeGreaterThanOrEqualTo(3);
        assertThat(parts).allSatisfy(p -> assertThat(p.text().length()).isLessThanOrEqualTo(SlackPoster.PART_CHARS));
        assertThat(String.join(" ", parts.stream().map(SlackMessage::text).toList())).contains(text);
    }

    @Test
    void aRateLimitsRetryAfterIsHonoured() {
        rig = new SlackRig(dir, "events");
        rig.slack.rateLimit("chat.postMessage", 1, 2);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "limited", null);
        await().until(() -> rig.botReplies(m.ts()).size() == 1);
        List<SlackCall> posts = rig.slack.calls("chat.postMessage");
        assertThat(posts).hasSize(2);
        assertThat(Duration.between(posts.get(0).at(), posts.get(1).at())).as("not tried again before Retry-After")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void anInterruptedPostIsLookedUpInTheThreadNotSentTwice(String mode) {
        rig = new SlackRig(dir, mode);
        rig.slack.dropAfterPerforming("chat.postMessage", 1);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/stream 3 400\nonce only please", null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("once only please")));
        assertThat(rig.botReplies(m.ts())).hasSize(1);
        assertThat(rig.slack.calls("conversations.replies")).isNotEmpty();
        assertThat(rig.slack.calls("chat.postMessage")).as(rig.slack.calls().toString() + rig.slack.messages(SlackRig.CHANNEL)).hasSize(1);
    }

    @Test
    void agentTextCannotMentionTheChannel() {
        rig = new SlackRig(dir, "events");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "<!channel> & <@U0GRACE01>", null);
        await().until(() -> rig.botReplies(m.ts()).size() == 1);
        assertThat(rig.botReplies(m.ts()).get(0).text()).contains("&lt;!channel&gt; &amp; &lt;@U0GRACE01&gt;")
                .doesNotContain("<!channel>");
    }

    @Test
    void aNoticeIsAMessageOfItsOwn() {
        rig = new SlackRig(dir, "events");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/empty", null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("finished without any output")));
        assertThat(rig.botReplies(m.ts()).get(0).text()).startsWith("_").endsWith("_");
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void aQuestionSaysWhoMayAnswerAndTheNextReplyAnswersIt(String mode) {
        rig = new SlackRig(dir, mode);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/ask Which cluster?", null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("Which cluster?")));
        SlackMessage question = rig.botReplies(m.ts()).get(0);
        assertThat(question.text()).contains("Anyone in this thread can answer").contains("within 1 h");
        // Grace answers by replying, without a mention
        rig.reply(SlackRig.GRACE, "prod-eu", m.ts());
        await().until(() -> sends().size() == 2);
        RecordedRequest answer = sends().get(1);
        assertThat(answer.taskId()).as("sent to the paused task").isNotNull();
        assertThat(answer.text()).isEqualTo("[Slack: Grace (U0GRACE01) <grace@example.com>]\nprod-eu");
        await().until(() -> rig.botReplies(m.ts()).size() >= 2);
    }

    @Test
    void aButtonAnswersTheQuestionOnceHoweverOftenItIsClicked() {
        rig = new SlackRig(dir, "events");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/ask Deploy now?", null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("Deploy now?")));
        String questionTs = rig.botReplies(m.ts()).get(0).ts();
        JsonObject click = new JsonObject().put("type", "block_actions")
                .put("user", new JsonObject().put("id", SlackRig.ADA))
                .put("channel", new JsonObject().put("id", SlackRig.CHANNEL))
                .put("container", new JsonObject().put("type", "message").put("message_ts", questionTs)
                        .put("channel_id", SlackRig.CHANNEL).put("thread_ts", m.ts()))
                .put("message", new JsonObject().put("ts", questionTs).put("thread_ts", m.ts()))
                .put("actions", new JsonArray().add(new JsonObject().put("action_id", SlackIntake.ANSWER_ACTION)
                        .put("type", "button").put("value", "yes")));
        assertThat(rig.events().interaction(rig.app.baseUrl() + "/slack/interactions", click).status()).isEqualTo(200);
        assertThat(rig.events().interaction(rig.app.baseUrl() + "/slack/interactions", click).status()).isEqualTo(200);
        await().until(() -> rig.botReplies(m.ts()).size() >= 2);
        // a third click after the answer does nothing either
        assertThat(rig.events().interaction(rig.app.baseUrl() + "/slack/interactions", click).status()).isEqualTo(200);
        SlackRig.Sent later = rig.mention(SlackRig.ADA, "after the question", m.ts());
        await().until(() -> sends().stream().anyMatch(s -> s.text().endsWith("after the question")));
        assertThat(sends()).filteredOn(s -> s.text().endsWith("\nyes")).as("answered once").hasSize(1);
        assertThat(later.ts()).isNotNull();
    }

    @Test
    void aForgedButtonPressIsRefused() {
        rig = new SlackRig(dir, "events");
        JsonObject click = new JsonObject().put("type", "block_actions");
        assertThat(rig.events().interaction(rig.app.baseUrl() + "/slack/interactions", click,
                dev.switchboard.testkit.slack.EventOptions.defaults().forged()).status()).isEqualTo(401);
    }
}
