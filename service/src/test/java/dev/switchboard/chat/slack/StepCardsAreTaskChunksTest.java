package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.slack.SlackCall;
import dev.switchboard.testkit.slack.SlackMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 28, native streaming: a kagent turn's step cards (tool call, tool result) are task chunks of one natively
 * streamed message — a task per tool call, in progress at its call and complete at its result — stopped when the
 * turn ends; never a chat.update of it, nor a message per card. With edit streaming they stay one edited message of
 * context lines ({@code SlackKagentTest}).
 */
@ServerTest
class StepCardsAreTaskChunksTest {

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    @ParameterizedTest
    @CsvSource({"events,native", "socket,native", "events,auto", "socket,auto"})
    void aTurnsStepCardsAreTasksOfOneStreamedMessage(String mode, String streaming) {
        rig = SlackRig.kagentStreaming(dir, mode, streaming);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/steps", null);
        SlackMessage steps = await().until(() -> rig.botReplies(m.ts()).stream()
                .filter(r -> !r.tasks().isEmpty() && !r.streaming()).findFirst().orElse(null), r -> r != null);

        List<JsonObject> tasks = steps.tasks().stream().map(JsonObject::new).toList();
        assertThat(tasks).as("one task per tool call").hasSize(1);
        JsonObject task = tasks.get(0);
        assertThat(task.getString("type")).isEqualTo("task_update");
        assertThat(task.getString("title")).isEqualTo("get_pods");
        assertThat(task.getString("status")).isEqualTo("complete");
        assertThat(task.getString("details")).contains("namespace");
        assertThat(task.getString("output")).contains("3 pods");
        assertThat(steps.metadata()).as("stopped with the steps message's key, to be found again").contains("steps-");

        List<SlackCall> starts = rig.slack.calls("chat.startStream").stream()
                .filter(c -> c.param("chunks") != null).toList();
        assertThat(starts).as("one stream for the steps").hasSize(1);
        // the call and its result may come in one delivery (cards coalesce like text): started in progress, the
        // result appended; or started complete
        JsonArray first = new JsonArray(starts.get(0).param("chunks"));
        if ("in_progress".equals(first.getJsonObject(0).getString("status"))) {
            assertThat(rig.slack.calls("chat.appendStream").stream().filter(c -> c.param("chunks") != null)
                    .map(c -> new JsonArray(c.param("chunks")).getJsonObject(0).getString("status")))
                    .as("the result appended").contains("complete");
        }
        assertThat(rig.slack.calls("chat.update").stream().filter(c -> steps.ts().equals(c.param("ts"))))
                .as("never edited").isEmpty();
        // the answer is its own message, after the steps
        await().until(() -> rig.botReplies(m.ts()).stream().anyMatch(r -> r.tasks().isEmpty()
                && r.text() != null && !r.text().isBlank()));
        assertThat(rig.botReplies(m.ts()).stream().filter(r -> !r.tasks().isEmpty())).hasSize(1);
    }

    @ParameterizedTest
    @CsvSource({"events,native", "socket,native"})
    void aStepsStreamWhoseStartWasNeverAnsweredIsGoneOn(String mode, String streaming) {
        rig = SlackRig.kagentStreaming(dir, mode, streaming);
        rig.slack.dropAfterPerforming("chat.startStream", 1);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/steps", null);
        SlackMessage steps = await().until(() -> rig.botReplies(m.ts()).stream()
                .filter(r -> !r.tasks().isEmpty() && !r.streaming()).findFirst().orElse(null), r -> r != null);
        assertThat(new JsonObject(steps.tasks().get(0)).getString("status")).isEqualTo("complete");
        assertThat(rig.botReplies(m.ts()).stream().filter(r -> !r.tasks().isEmpty())).as("one steps message").hasSize(1);
        assertThat(rig.slack.calls("chat.startStream").stream().filter(c -> c.param("chunks") != null))
                .as("the steps stream started once").hasSize(1);
    }
}
