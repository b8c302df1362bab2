package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.AnswerFeedback;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.SlackMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28, feedback: every completed answer ends with 👍/👎 ({@code feedback_buttons} in a {@code context_actions}
 * block) whether it streamed natively or by edits; a click is recorded once per person and answer and counted in
 * {@code switchboard_bridge_feedback_total{binding,value}}; a click that names no answer of its thread counts nothing.
 */
@ServerTest
class SlackFeedbackTest {

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    /** The feedback_buttons element of a message, or null. */
    private static JsonObject feedbackButtons(SlackMessage m) {
        if (m.blocks() == null) {
            return null;
        }
        for (Object b : new JsonArray(m.blocks())) {
            JsonObject block = (JsonObject) b;
            if ("context_actions".equals(block.getString("type"))) {
                for (Object e : block.getJsonArray("elements")) {
                    if ("feedback_buttons".equals(((JsonObject) e).getString("type"))) {
                        return (JsonObject) e;
                    }
                }
            }
        }
        return null;
    }

    private JsonObject click(SlackMessage answer, String threadTs, String user, JsonObject buttons, String value) {
        JsonObject payload = rig.buttonClick(answer, threadTs, user, rig.slack.options().teamId(),
                buttons.getString("action_id"), value);
        payload.getJsonArray("actions").getJsonObject(0).put("type", "feedback_buttons");
        return payload;
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void feedbackCannotBeMadeAWayToCallTheAgent(String mode) throws Exception {
        rig = SlackRig.echo(dir, mode, "allowedUsers: [" + SlackRig.ADA + "]\nfeedback: {sendToAgent: true}");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "how is the cluster?", null);
        SlackMessage answer = await().until(() -> rig.botReplies(m.ts()).stream()
                .filter(r -> feedbackButtons(r) != null).findFirst().orElse(null), r -> r != null);
        JsonObject buttons = feedbackButtons(answer);
        String good = buttons.getJsonObject("positive_button").getString("value");
        String bad = buttons.getJsonObject("negative_button").getString("value");
        // someone who may not talk to the agent: not recorded, not sent
        rig.deliverInteraction(click(answer, m.ts(), SlackRig.GRACE, buttons, bad));
        // Ada changes her mind five times: recorded each time, sent at most three times
        for (String v : List.of(good, bad, good, bad, good)) {
            rig.deliverInteraction(click(answer, m.ts(), SlackRig.ADA, buttons, v));
        }
        await().until(() -> sent("not_sent") == 2.0);
        await().until(() -> sent("sent") == 3.0);
        assertThat(counted("good")).isEqualTo(3.0);
        assertThat(counted("bad")).as("Ada's two, not Grace's").isEqualTo(2.0);
        assertThat(rig.agent.recorder().rpcRequests().stream().filter(r -> r.metadata() != null
                && r.metadata().has(AnswerFeedback.METADATA))).hasSize(3)
                .allSatisfy(r -> assertThat(r.metadata().get("agentkourier.dev/actor").get("id").asText())
                        .isEqualTo(SlackRig.ADA));
    }

    private double counted(String value) throws Exception {
        return metric("switchboard_bridge_feedback_total{", "binding=\"slack-sre\"", "value=\"" + value + "\"");
    }

    private double sent(String outcome) throws Exception {
        return metric("switchboard_bridge_feedback_sent_total{", "outcome=\"" + outcome + "\"");
    }

    /** The value of the first series on /metrics whose line starts with {@code name} and has every label given. */
    private double metric(String name, String... labels) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(rig.app.baseUrl() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        for (String line : r.body().split("\n")) {
            if (line.startsWith(name) && java.util.Arrays.stream(labels).allMatch(line::contains)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    @ParameterizedTest
    @CsvSource({"events,native", "events,edit", "socket,native", "socket,edit"})
    void aCompletedAnswerCarriesFeedbackButtonsAndAClickIsCountedOnce(String mode, String streaming) throws Exception {
        rig = SlackRig.streaming(dir, mode, streaming, true);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/stream 3 200\nhow is the cluster?", null);
        SlackMessage answer = await().until(() -> rig.botReplies(m.ts()).stream()
                .filter(r -> feedbackButtons(r) != null).findFirst().orElse(null), r -> r != null);
        assertThat(answer.text()).as("the text stays the message's text (or fallback)").contains("how is the cluster?");
        assertThat(rig.botReplies(m.ts())).hasSize(1);
        JsonObject buttons = feedbackButtons(answer);
        String good = buttons.getJsonObject("positive_button").getString("value");
        String bad = buttons.getJsonObject("negative_button").getString("value");
        assertThat(good).startsWith("good:");
        assertThat(bad).startsWith("bad:");

        rig.deliverInteraction(click(answer, m.ts(), SlackRig.ADA, buttons, good));
        await().until(() -> counted("good") == 1.0);
        // the same click again (a double click, a redelivery) is the same feedback
        rig.deliverInteraction(click(answer, m.ts(), SlackRig.ADA, buttons, good));
        // Grace thinks otherwise; a forged value naming no answer of this thread counts nothing
        rig.deliverInteraction(click(answer, m.ts(), SlackRig.GRACE, buttons, "good:not-a-post"));
        rig.deliverInteraction(click(answer, m.ts(), SlackRig.GRACE, buttons, bad));
        await().until(() -> counted("bad") == 1.0);
        assertThat(counted("good")).isEqualTo(1.0);
        // without feedback.sendToAgent, the agent hears nothing of it
        assertThat(rig.agent.recorder().rpcRequests().stream().filter(r -> r.metadata() != null
                && r.metadata().has(AnswerFeedback.METADATA))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void withSendToAgentTheAgentIsToldAndItsReplyIsNotShown(String mode) throws Exception {
        rig = SlackRig.echo(dir, mode, "feedback: {sendToAgent: true}");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "how is the cluster?", null);
        SlackMessage answer = await().until(() -> rig.botReplies(m.ts()).stream()
                .filter(r -> feedbackButtons(r) != null).findFirst().orElse(null), r -> r != null);
        JsonObject buttons = feedbackButtons(answer);
        String turn = rig.agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend).findFirst().orElseThrow()
                .messageId();
        rig.deliverInteraction(click(answer, m.ts(), SlackRig.GRACE, buttons,
                buttons.getJsonObject("negative_button").getString("value")));

        RecordedRequest told = await().until(() -> rig.agent.recorder().rpcRequests().stream()
                .filter(r -> r.metadata() != null && r.metadata().has(AnswerFeedback.METADATA)).findFirst().orElse(null),
                r -> r != null);
        JsonNode feedback = told.metadata().get(AnswerFeedback.METADATA);
        assertThat(feedback.get("value").asText()).isEqualTo("bad");
        assertThat(feedback.get("messageId").asText()).isEqualTo(turn);
        assertThat(feedback.get("contextId").asText()).as("the rated turn's context, named").isNotBlank();
        assertThat(told.contextId()).as("sent in no context: the thread's may be busy with another turn").isNull();
        assertThat(told.metadata().get("agentkourier.dev/actor").get("id").asText()).isEqualTo(SlackRig.GRACE);
        assertThat(told.header("Authorization")).as("the Binding's identity, as every call")
                .isEqualTo(rig.agent.recorder().rpcRequests().get(0).header("Authorization"));
        await().until(() -> sent("sent") == 1.0);
        // the agent's (echo) reply to it is shown nowhere
        assertThat(rig.botReplies(m.ts())).hasSize(1);
        assertThat(rig.slack.thread(SlackRig.CHANNEL, m.ts()).stream().filter(SlackMessage::fromBot)
                .noneMatch(b -> b.text().contains("unhelpful"))).isTrue();
    }
}
