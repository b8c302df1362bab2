package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.EventOptions;
import dev.switchboard.testkit.slack.SlackEvents;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10, point 1 in socket mode: the SDK's client connects with the app token, acks every envelope, reconnects. */
@ServerTest
class SlackSocketModeTest {

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    private List<RecordedRequest> sends() {
        return rig.agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend).toList();
    }

    private void awaitConnected() {
        await().until(() -> rig.slack.connected() && rig.app.slack().socketConnected("main"));
    }

    @Test
    void connectsWithTheAppTokenAcksAndCarriesATurn() {
        rig = new SlackRig(dir, "socket");
        awaitConnected();
        assertThat(rig.slack.calls("apps.connections.open")).allSatisfy(c ->
                assertThat(c.token()).isEqualTo(dev.switchboard.bridge.support.ConfigYaml.SLACK_APP_TOKEN));
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "over the socket", null);
        await().until(() -> rig.slack.acked(m.delivery().body()));
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("over the socket")));
        assertThat(sends().get(0).text()).isEqualTo("[Slack: Ada (U0ADA0001) <ada@example.com>]\nover the socket");
    }

    @Test
    void reconnectsAfterADropAndCarriesWhatCameMeanwhile() {
        rig = new SlackRig(dir, "socket");
        awaitConnected();
        int before = rig.slack.connections();
        rig.slack.dropSocket();
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "sent during the drop", null);
        await().atMost(Duration.ofSeconds(60)).until(() -> rig.slack.connections() > before);
        await().atMost(Duration.ofSeconds(60)).until(() -> rig.botReplies(m.ts()).size() == 1);
        assertThat(rig.slack.acked(m.delivery().body())).isTrue();
    }

    @Test
    void aRedeliveredEventIsOneTurn() {
        rig = new SlackRig(dir, "socket");
        awaitConnected();
        String ts = rig.slack.postAsUser(SlackRig.CHANNEL, null, SlackRig.ADA, rig.botMention() + " just once");
        String eventId = SlackEvents.newEventId();
        rig.deliver(rig.slack.mentionEvent(SlackRig.CHANNEL, ts), EventOptions.defaults().withEventId(eventId));
        rig.deliver(rig.slack.mentionEvent(SlackRig.CHANNEL, ts), EventOptions.defaults().withEventId(eventId));
        SlackRig.Sent later = rig.mention(SlackRig.ADA, "next", null);
        await().until(() -> rig.botReplies(later.ts()).size() == 1);
        await().until(() -> rig.botReplies(ts).size() == 1);
        assertThat(sends()).hasSize(2);
        assertThat(rig.slack.acks()).hasSizeGreaterThanOrEqualTo(3);
    }

    @Test
    void aButtonPressOverTheSocketAnswersTheQuestion() {
        rig = new SlackRig(dir, "socket");
        awaitConnected();
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/ask Proceed?", null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("Proceed?")));
        String questionTs = rig.botReplies(m.ts()).get(0).ts();
        String envelope = rig.slack.pushInteraction(new JsonObject().put("type", "block_actions")
                .put("user", new JsonObject().put("id", SlackRig.GRACE))
                .put("channel", new JsonObject().put("id", SlackRig.CHANNEL))
                .put("container", new JsonObject().put("message_ts", questionTs).put("thread_ts", m.ts()))
                .put("actions", new JsonArray().add(new JsonObject().put("action_id", SlackIntake.ANSWER_ACTION)
                        .put("value", "go ahead"))));
        await().until(() -> rig.slack.acked(envelope));
        await().until(() -> sends().size() == 2);
        assertThat(sends().get(1).text()).isEqualTo("[Slack: Grace (U0GRACE01) <grace@example.com>]\ngo ahead");
    }
}
