package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.bridge.AnswerFeedback;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.SlackMessage;
import dev.switchboard.tracing.OtlpReceiver;
import dev.switchboard.tracing.OtlpReceiver.ReceivedSpan;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28, feedback: a person's 👍/👎 is a span of the answer's turn (a child of its "bridge turn" span, in its
 * trace, whichever process ended the turn), and the feedback message sent on to the agent carries that trace.
 */
@ServerTest
class FeedbackIsAttachedToTheTurnsSpanTest {

    @TempDir
    Path dir;
    Vertx vertx;
    OtlpReceiver receiver;
    SlackRig rig;

    @AfterEach
    void stop() {
        if (rig != null) {
            rig.close();
        }
        if (receiver != null) {
            receiver.close();
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void feedbackIsAChildOfTheTurnsSpan(String mode) {
        vertx = Vertx.vertx();
        receiver = OtlpReceiver.start(vertx);
        rig = SlackRig.traced(dir, mode, receiver.endpoint(), "feedback: {sendToAgent: true}");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "how is the cluster?", null);
        SlackMessage answer = await().until(() -> rig.botReplies(m.ts()).stream()
                .filter(r -> buttons(r) != null).findFirst().orElse(null), r -> r != null);
        JsonObject buttons = buttons(answer);
        JsonObject click = rig.buttonClick(answer, m.ts(), SlackRig.ADA, rig.slack.options().teamId(),
                buttons.getString("action_id"), buttons.getJsonObject("positive_button").getString("value"));
        click.getJsonArray("actions").getJsonObject(0).put("type", "feedback_buttons");
        rig.deliverInteraction(click);

        ReceivedSpan feedback = await().until(() -> receiver.find(s -> s.name().equals("bridge feedback")).orElse(null),
                s -> s != null);
        ReceivedSpan turn = await().until(() -> receiver.find(s -> s.name().equals("bridge turn")).orElse(null),
                s -> s != null);
        assertThat(feedback.traceId()).isEqualTo(turn.traceId());
        assertThat(feedback.parentSpanId()).isEqualTo(turn.spanId());
        assertThat(feedback.attribute("switchboard.feedback.value")).isEqualTo("good");
        assertThat(feedback.attribute("switchboard.turn.message_id")).isEqualTo(turn.attribute("switchboard.turn.message_id"));
        assertThat(feedback.attribute("switchboard.binding")).isEqualTo("slack-sre");

        RecordedRequest told = await().until(() -> rig.agent.recorder().rpcRequests().stream()
                .filter(r -> r.metadata() != null && r.metadata().has(AnswerFeedback.METADATA)).findFirst().orElse(null),
                r -> r != null);
        assertThat(told.header("traceparent")).as("the message to the agent is in the turn's trace, under the feedback")
                .isEqualTo("00-" + turn.traceId() + "-" + feedback.spanId() + "-01");
    }

    private static JsonObject buttons(SlackMessage m) {
        if (m.blocks() == null) {
            return null;
        }
        for (Object b : new JsonArray(m.blocks())) {
            JsonObject block = (JsonObject) b;
            if ("context_actions".equals(block.getString("type"))) {
                return block.getJsonArray("elements").getJsonObject(0);
            }
        }
        return null;
    }
}
