package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.SlackMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 11, point 4: kagent-v1 in Slack. An approval is a message with Approve and Reject buttons showing the tool
 * and its arguments; ask-user questions are buttons or a form; a turn's step cards are one message of context
 * lines; a click answers once, and the question then says who decided what.
 */
@ServerTest
class SlackKagentTest {

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    private List<RecordedRequest> sends() {
        return rig.recorder.rpcRequests().stream().filter(RecordedRequest::isSend).toList();
    }

    private static JsonArray blocks(SlackMessage m) {
        return m.blocks() == null ? new JsonArray() : new JsonArray(m.blocks());
    }

    private static Stream<JsonObject> elements(SlackMessage m) {
        return blocks(m).stream().map(JsonObject.class::cast).filter(b -> "actions".equals(b.getString("type")))
                .flatMap(b -> b.getJsonArray("elements").stream().map(JsonObject.class::cast));
    }

    private static Optional<JsonObject> element(SlackMessage m, String actionId) {
        return elements(m).filter(e -> actionId.equals(e.getString("action_id"))).findFirst();
    }

    /** The bot's question message in the thread, once it shows an element {@code actionId}. */
    private SlackMessage question(String threadTs, String actionId) {
        await().until(() -> rig.botReplies(threadTs).stream().anyMatch(m -> element(m, actionId).isPresent()));
        return rig.botReplies(threadTs).stream().filter(m -> element(m, actionId).isPresent()).findFirst().orElseThrow();
    }

    private SlackMessage current(SlackMessage m) {
        return rig.slack.message(m.channel(), m.ts());
    }

    /** A block_actions payload as Slack sends it for a click on {@code element} of {@code message}. */
    private JsonObject click(SlackMessage message, String threadTs, String user, JsonObject action, JsonObject state) {
        JsonObject payload = new JsonObject().put("type", "block_actions")
                .put("user", new JsonObject().put("id", user))
                .put("channel", new JsonObject().put("id", SlackRig.CHANNEL))
                .put("container", new JsonObject().put("type", "message").put("message_ts", message.ts())
                        .put("channel_id", SlackRig.CHANNEL).put("thread_ts", threadTs))
                .put("message", new JsonObject().put("ts", message.ts()).put("thread_ts", threadTs))
                .put("actions", new JsonArray().add(action));
        if (state != null) {
            payload.put("state", new JsonObject().put("values", state));
        }
        return payload;
    }

    private JsonObject buttonClick(SlackMessage message, String threadTs, String user, String actionId) {
        JsonObject button = element(message, actionId).orElseThrow();
        return click(message, threadTs, user, new JsonObject().put("action_id", actionId).put("type", "button")
                .put("value", button.getString("value")), null);
    }

    private void deliver(JsonObject payload) {
        if (rig.mode.equals("socket")) {
            rig.slack.pushInteraction(payload);
        } else {
            assertThat(rig.events().interaction(rig.app.baseUrl() + "/slack/interactions", payload).status()).isEqualTo(200);
        }
    }

    private String text(SlackMessage m) {
        return m.text() + "\n" + m.blocks();
    }

    private void awaitAnswer(String threadTs, String words) {
        await().until(() -> rig.botReplies(threadTs).stream().anyMatch(m -> m.text() != null && m.text().contains(words)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void anApprovalIsButtonsAndApproveResumesTheTaskOnceHoweverOftenItIsClicked(String mode) {
        rig = SlackRig.kagent(dir, mode);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approve delete_pod {\"name\":\"web-1\"}", null);
        SlackMessage q = question(m.ts(), SlackBlocks.APPROVE);
        assertThat(q.text()).as("the fallback and notification text").contains("approval");
        assertThat(q.blocks()).contains("delete_pod").contains("web-1").contains("```");
        JsonObject approve = element(q, SlackBlocks.APPROVE).orElseThrow();
        JsonObject reject = element(q, SlackBlocks.REJECT).orElseThrow();
        assertThat(approve.getString("style")).isEqualTo("primary");
        assertThat(reject.getString("style")).isEqualTo("danger");
        assertThat(approve.getJsonObject("text").getString("text")).isEqualTo("Approve");
        assertThat(approve.getString("value")).hasSizeLessThan(2_000);
        assertThat(q.blocks()).as("what a typed reply does").contains("clear yes");

        JsonObject click = buttonClick(q, m.ts(), SlackRig.ADA, SlackBlocks.APPROVE);
        deliver(click);
        deliver(click);
        awaitAnswer(m.ts(), "approved delete_pod: done");
        // the question no longer offers buttons, and says who decided
        await().until(() -> element(current(q), SlackBlocks.APPROVE).isEmpty());
        assertThat(text(current(q))).contains("*Approved* by Ada");
        // Reject on a settled question does nothing
        deliver(buttonClick(q, m.ts(), SlackRig.GRACE, SlackBlocks.REJECT));
        SlackRig.Sent later = rig.mention(SlackRig.ADA, "after the question", m.ts());
        await().until(() -> sends().stream().anyMatch(s -> s.text() != null && s.text().endsWith("after the question")));
        List<RecordedRequest> answers = sends().stream().filter(s -> s.metadata() != null && s.metadata().has(Hitl.URI)).toList();
        assertThat(answers).as("answered once").hasSize(1);
        assertThat(answers.get(0).metadata().path(Hitl.URI).path("approvals").get(0).path("approved").asBoolean()).isTrue();
        assertThat(answers.get(0).text()).as("no person prefix").isEqualTo("Approved");
        assertThat(later.ts()).isNotNull();
    }

    @Test
    void rejectRejects() {
        rig = SlackRig.kagent(dir, "events");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approve delete_pod", null);
        SlackMessage q = question(m.ts(), SlackBlocks.REJECT);
        deliver(buttonClick(q, m.ts(), SlackRig.GRACE, SlackBlocks.REJECT));
        awaitAnswer(m.ts(), "rejected delete_pod");
        await().until(() -> element(current(q), SlackBlocks.REJECT).isEmpty());
        assertThat(text(current(q))).contains("*Rejected* by Grace");
    }

    @Test
    void aTypedYesInTheThreadApprovesAndAnythingElseRejectsWithItsWords() {
        rig = SlackRig.kagent(dir, "events");
        SlackRig.Sent yes = rig.mention(SlackRig.ADA, "/approve scale_up", null);
        SlackMessage q = question(yes.ts(), SlackBlocks.APPROVE);
        rig.reply(SlackRig.GRACE, "yes", yes.ts());
        awaitAnswer(yes.ts(), "approved scale_up: done");
        await().until(() -> element(current(q), SlackBlocks.APPROVE).isEmpty());
        assertThat(text(current(q))).contains("*Approved* by Grace");

        SlackRig.Sent no = rig.mention(SlackRig.ADA, "/approve delete_pod", null);
        SlackMessage q2 = question(no.ts(), SlackBlocks.APPROVE);
        rig.reply(SlackRig.GRACE, "wait, use the staging cluster", no.ts());
        awaitAnswer(no.ts(), "rejected delete_pod: wait, use the staging cluster");
        await().until(() -> element(current(q2), SlackBlocks.APPROVE).isEmpty());
        assertThat(text(current(q2))).contains("*Rejected* by Grace: wait, use the staging cluster");
    }

    @Test
    void aTurnsStepCardsAreOneMessageOfContextLines() {
        rig = SlackRig.kagent(dir, "events");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/steps", null);
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.blocks() != null
                && r.blocks().contains(":heavy_check_mark:")));
        List<SlackMessage> stepMessages = rig.botReplies(m.ts()).stream()
                .filter(r -> r.blocks() != null && r.blocks().contains("get_pods")).toList();
        assertThat(stepMessages).as("one message for the turn's steps").hasSize(1);
        SlackMessage steps = stepMessages.get(0);
        assertThat(steps.text()).contains("get_pods");
        List<JsonObject> lines = blocks(steps).stream().map(JsonObject.class::cast).toList();
        assertThat(lines).allSatisfy(b -> assertThat(b.getString("type")).isEqualTo("context"));
        assertThat(steps.blocks()).contains(":wrench: `get_pods`").contains("namespace").contains("3 pods");
        assertThat(steps.metadata()).contains("steps-");
    }

    @Test
    void askUserIsAFormWhoseSendAnswersEveryQuestion() {
        rig = SlackRig.kagent(dir, "events");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/askuser", null);
        SlackMessage q = question(m.ts(), SlackBlocks.SEND);
        JsonObject namespace = element(q, SlackBlocks.PICK + 0).orElseThrow();
        JsonObject checks = element(q, SlackBlocks.PICK + 1).orElseThrow();
        assertThat(namespace.getString("type")).isEqualTo("static_select");
        assertThat(checks.getString("type")).isEqualTo("checkboxes");
        JsonArray nsOptions = namespace.getJsonArray("options");
        JsonArray checkOptions = checks.getJsonArray("options");
        assertThat(nsOptions.getJsonObject(1).getJsonObject("text").getString("text")).isEqualTo("staging");

        // a pick alone answers nothing; Send with a question left empty says so
        deliver(click(q, m.ts(), SlackRig.ADA, new JsonObject().put("action_id", SlackBlocks.PICK + 0)
                .put("type", "static_select").put("selected_option", nsOptions.getJsonObject(1)), null));
        JsonObject partial = new JsonObject().put("q0", new JsonObject().put(SlackBlocks.PICK + 0,
                new JsonObject().put("type", "static_select").put("selected_option", nsOptions.getJsonObject(1))));
        JsonObject send = new JsonObject().put("action_id", SlackBlocks.SEND).put("type", "button")
                .put("value", element(q, SlackBlocks.SEND).orElseThrow().getString("value"));
        deliver(click(q, m.ts(), SlackRig.ADA, send, partial));
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.text().contains("question 2 has no answer yet")));
        assertThat(sends()).hasSize(1);

        JsonObject full = partial.copy().put("q1", new JsonObject().put(SlackBlocks.PICK + 1, new JsonObject()
                .put("type", "checkboxes").put("selected_options", new JsonArray().add(checkOptions.getJsonObject(0))
                        .add(checkOptions.getJsonObject(2)))));
        deliver(click(q, m.ts(), SlackRig.ADA, send, full));
        await().until(() -> sends().size() == 2);
        JsonObject payload = new JsonObject(sends().get(1).metadata().path(Hitl.URI).toString());
        assertThat(payload.getString("type")).isEqualTo("ask_user_response");
        assertThat(payload.getJsonArray("answers").getJsonObject(0).getJsonArray("answer")).containsExactly("staging");
        assertThat(payload.getJsonArray("answers").getJsonObject(1).getJsonArray("answer")).containsExactly("lint", "e2e");
        await().until(() -> element(current(q), SlackBlocks.SEND).isEmpty());
        assertThat(text(current(q))).contains("*Answered* by Ada: staging; lint, e2e");
    }
}
