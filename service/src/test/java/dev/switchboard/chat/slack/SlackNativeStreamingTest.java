package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import dev.switchboard.testkit.slack.SlackCall;
import dev.switchboard.testkit.slack.SlackMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SlackApp {@code spec.streaming} (issue 28): an answer streamed natively is one message, started once, appended to
 * and stopped with its whole text; auto falls back to edits for good when the workspace refuses; edit never streams;
 * a stream Slack ended is finished by an edit of the same message, never a second one.
 */
@ServerTest
class SlackNativeStreamingTest {

    private static final String TEXT = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima";

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    private long count(String method) {
        return rig.slack.calls(method).size();
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void aNativelyStreamedAnswerIsOneMessageStartedAppendedAndStopped(String mode) {
        rig = SlackRig.streaming(dir, mode, "native", true);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/stream 8 300\n" + TEXT, null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("kilo lima") && !r.streaming()));
        List<SlackMessage> replies = rig.botReplies(m.ts());
        assertThat(replies).as("one message for the whole answer").hasSize(1);
        SlackMessage answer = replies.get(0);
        assertThat(answer.text()).isEqualTo(TEXT);
        assertThat(answer.metadata()).as("stopStream marks it as the post it shows").contains("switchboard_post");
        assertThat(count("chat.startStream")).isEqualTo(1);
        assertThat(count("chat.stopStream")).isEqualTo(1);
        assertThat(count("chat.appendStream")).as("the chunks that came after the first, coalesced").isBetween(1L, 7L);
        assertThat(count("chat.update")).as("no edits").isZero();
        assertThat(rig.slack.calls("chat.postMessage")).as("nothing posted the old way").isEmpty();
        SlackCall start = rig.slack.calls("chat.startStream").get(0);
        assertThat(start.param("thread_ts")).isEqualTo(m.ts());
        assertThat(start.param("recipient_user_id")).as("a channel's stream is for the person who asked")
                .isEqualTo(SlackRig.ADA);
        assertThat(start.param("recipient_team_id")).isEqualTo(rig.slack.options().teamId());
    }

    @Test
    void autoFallsBackToEditsOnceWhenTheWorkspaceRefusesNativeStreaming() {
        rig = SlackRig.streaming(dir, "events", "auto", false);
        SlackRig.Sent first = rig.mention(SlackRig.ADA, "/stream 4 200\n" + TEXT, null);
        await().until(() -> rig.botReplies(first.ts()).stream().anyMatch(r -> r.text().contains("kilo lima")));
        SlackRig.Sent second = rig.mention(SlackRig.GRACE, "second question", null);
        await().until(() -> rig.botReplies(second.ts()).stream().anyMatch(r -> r.text().contains("second question")));
        assertThat(count("chat.startStream")).as("refused once, not tried again").isEqualTo(1);
        assertThat(rig.botReplies(first.ts())).hasSize(1);
        assertThat(rig.botReplies(first.ts()).get(0).text()).isEqualTo(TEXT);
        assertThat(rig.slack.calls("chat.postMessage")).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void editModeNeverStreamsEvenWhereTheWorkspaceCould() {
        rig = SlackRig.streaming(dir, "events", "edit", true);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/stream 4 200\n" + TEXT, null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("kilo lima")));
        assertThat(count("chat.startStream") + count("chat.appendStream") + count("chat.stopStream")).isZero();
        assertThat(rig.botReplies(m.ts())).hasSize(1);
    }

    @Test
    void aStreamSlackEndedIsFinishedByAnEditOfTheSameMessage() {
        rig = SlackRig.streaming(dir, "events", "native", true);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/stream 10 500\n" + TEXT, null);
        SlackMessage started = await().until(() -> rig.botReplies(m.ts()).stream().findFirst().orElse(null),
                r -> r != null && r.streaming());
        rig.slack.endStream(SlackRig.CHANNEL, started.ts());
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> TEXT.equals(r.text())));
        assertThat(rig.botReplies(m.ts())).as("the same message, never a second").hasSize(1);
        assertThat(rig.botReplies(m.ts()).get(0).ts()).isEqualTo(started.ts());
        assertThat(rig.slack.calls("chat.update")).as("finished by an edit").isNotEmpty();
        assertThat(count("chat.startStream")).isEqualTo(1);
    }

    @Test
    void aTurnNoPersonStartedIsEditedInAChannelAndTheNextPersonsTurnStillStreams() throws Exception {
        // Slack streams in a channel only for a named person; an alert's turn has none
        rig = new SlackRig(dir, "events\n  streaming: auto", FakeSlackOptions.defaults().withNativeStreaming(true),
                TestAgentOptions.echo("sre"), null, false, c -> c.trigger("alerts", "slack-sre", "alertmanager", null));
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(rig.app.baseUrl() + "/triggers/alerts"))
                .header("Authorization", "Bearer " + ConfigYaml.TRIGGER_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"version": "4", "groupKey": "g1", "status": "firing", "receiver": "switchboard",
                         "groupLabels": {"alertname": "DiskFull"}, "commonLabels": {"alertname": "DiskFull"},
                         "alerts": [{"status": "firing", "labels": {"alertname": "DiskFull"}, "annotations": {},
                                     "startsAt": "2024-05-01T10:00:00Z", "fingerprint": "fp1"}]}
                        """)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        String threadId = ChatApi.read(r.body()).path("threadId").asText();
        String alertTs = threadId.substring(threadId.lastIndexOf(':') + 1);
        await().until(() -> rig.botReplies(alertTs).size() == 2);
        assertThat(count("chat.startStream")).as("no stream without a person to stream to").isZero();

        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/stream 8 300\n" + TEXT, null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(x -> TEXT.equals(x.text()) && !x.streaming()));
        assertThat(count("chat.startStream")).as("the workspace was not taken to refuse streams").isEqualTo(1);
        assertThat(rig.slack.calls("chat.startStream").get(0).param("recipient_user_id")).isEqualTo(SlackRig.ADA);
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void aStreamWhoseStartWasNeverAnsweredIsGoneOnNotStartedAgain(String mode) {
        // Slack starts the stream, but its answer (the ts) is lost, as in a crash between the two
        rig = SlackRig.streaming(dir, mode, "native", true);
        rig.slack.dropAfterPerforming("chat.startStream", 1);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/stream 8 300\n" + TEXT, null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> TEXT.equals(r.text()) && !r.streaming()));
        assertThat(rig.botReplies(m.ts())).as("one message for the whole answer").hasSize(1);
        assertThat(count("chat.startStream")).as("started once: the lost stream was found and gone on with").isEqualTo(1);
        assertThat(count("conversations.replies")).as("looked up in its thread").isPositive();
        assertThat(rig.slack.calls("chat.postMessage")).as("nothing posted the old way").isEmpty();
    }
}
