package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.artifact;
import static dev.switchboard.bridge.engine.Wire.task;
import static dev.switchboard.bridge.engine.Wire.update;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Seed 000, "Task states": one test per row (B8). */
class TaskStatesRowsTest {

    @Test
    @DisplayName("Task states: submitted, working — shows the turn as running")
    void states_submittedAndWorkingShowTheTurnAsRunning() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        assertThat(h.lastView("m1")).isEqualTo(TurnView.SENDING);
        h.event(task("t1", "c1", TaskState.SUBMITTED));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.RUNNING);
        h.event(update("t1", "c1", TaskState.WORKING));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.RUNNING);
        assertThat(h.finished("m1")).isFalse();
        assertThat(h.notices()).isEmpty();
    }

    @Test
    @DisplayName("Task states: completed — ends the turn; posts a notice only when there was no artifact text")
    void states_completedEndsTheTurnWithANoticeOnlyWithoutArtifactText() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m1", "hi", "t1", "c1", "the answer");
        assertThat(h.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(h.notices()).isEmpty();

        h.chat("m2", "again");
        h.stream(task("t2", "c1", TaskState.COMPLETED));
        assertThat(h.finished("m2")).isTrue();
        assertThat(h.lastView("m2")).isEqualTo(TurnView.COMPLETED);
        assertThat(h.notices()).containsExactly(Notices.NO_OUTPUT);
    }

    @Test
    @DisplayName("Task states: failed — ends the turn and posts \"The agent's task failed.\" with a category when one is "
            + "recognised (see Errors)")
    void states_failedEndsTheTurnWithTheFailedNoticeAndItsCategory() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.stream(task("t1", "c1", TaskState.WORKING), new Task("t1", "c1",
                Wire.status(TaskState.FAILED, Wire.agentSays("e1", "Upstream model said: Rate limit exceeded, retry later")),
                null, null, null));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.FAILED);
        assertThat(h.notices()).containsExactly("The agent's task failed. Reason: rate limit.");

        h.chat("m2", "again");
        h.stream(new Task("t2", "c1", Wire.status(TaskState.FAILED, Wire.agentSays("e2", "something broke")), null, null, null));
        assertThat(h.notices()).last().isEqualTo("The agent's task failed.");
        assertThat(h.finished("m2")).isTrue();
    }

    @Test
    @DisplayName("Task states: rejected, canceled — ends the turn and posts a notice")
    void states_rejectedAndCanceledEndTheTurnWithANotice() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.stream(task("t1", "c1", TaskState.REJECTED));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.REJECTED);
        assertThat(h.notices()).containsExactly(Notices.REJECTED);

        h.chat("m2", "again");
        h.stream(task("t2", "c1", TaskState.WORKING), artifact("t2", "c1", "a1", "partial", false),
                task("t2", "c1", TaskState.CANCELED, "partial"));
        assertThat(h.lastView("m2")).isEqualTo(TurnView.CANCELED);
        assertThat(h.notices()).containsExactly(Notices.REJECTED, Notices.CANCELED);
        assertThat(h.session.turns()).isEmpty();
    }

    @Test
    @DisplayName("Task states: input-required — a question (see Let the agent ask questions)")
    void states_inputRequiredIsAQuestion() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "book a table");
        h.event(task("t1", "c1", Wire.asking("q1", h.now, "Which day?")));
        assertThat(h.expect(Effect.AskQuestion.class)).isEqualTo(new Effect.AskQuestion("m1", "Which day?"));
        assertThat(h.expect(Effect.CloseStream.class)).isNotNull();
        assertThat(h.lastView("m1")).isEqualTo(TurnView.WAITING_FOR_ANSWER);

        // the next reply is its answer, not a new turn
        h.chat("a1", "Tuesday");
        assertThat(h.session.turns()).hasSize(1);
        assertThat(h.turn("m1").answerMessageIds()).containsExactly("a1");
    }

    @Test
    @DisplayName("Task states: auth-required — not supported: the task is treated as paused, with no prompt and no "
            + "timeout, and later replies wait behind it; on a2a a typed reply makes Agent Kourier read the task "
            + "again, and follow it if the agent has moved on")
    void states_authRequiredPausesWithoutPromptOrTimeoutAndATypedReplyRereadsOnA2a() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "deploy");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.event(task("t1", "c1", TaskState.AUTH_REQUIRED)); // a full Task: an update alone does not pause (below)
        assertThat(h.lastView("m1")).isEqualTo(TurnView.PAUSED);
        assertThat(h.all(Effect.AskQuestion.class)).isEmpty();
        h.advance(Duration.ofDays(2));
        assertThat(h.all(Effect.CancelTask.class)).as("no timeout").isEmpty();
        assertThat(h.finished("m1")).isFalse();

        // a typed reply waits behind it, and makes us read the task again
        h.chat("m2", "done, I logged in");
        assertThat(h.views("m2")).containsExactly(TurnView.QUEUED);
        assertThat(h.expect(Effect.GetTask.class).taskId()).isEqualTo("t1");
        h.read(task("t1", "c1", TaskState.AUTH_REQUIRED));
        assertThat(h.sends()).hasSize(1);
        assertThat(h.nextCall(Duration.ofDays(1))).as("still paused: nothing more").isNull();

        h.chat("m3", "now?");
        h.read(task("t1", "c1", TaskState.WORKING));
        assertThat(h.expect(Effect.Subscribe.class).taskId()).as("moved on: followed").isEqualTo("t1");
        h.stream(task("t1", "c1", TaskState.COMPLETED, "deployed"));
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.call(Effect.SendStream.class).message().messageId()).isEqualTo("m2");

        // on kagent-v1 a typed reply only waits
        EngineHarness kagent = EngineHarness.kagent();
        kagent.firstTurn("m1", "deploy");
        kagent.stream(task("t1", "c1", TaskState.AUTH_REQUIRED));
        kagent.chat("m2", "done");
        assertThat(kagent.last).noneMatch(EngineHarness::isCall);
    }

    @Test
    @DisplayName("Task states: auth-required — treated as paused only when settled: a status update saying "
            + "auth-required does not pause the turn; the stream must end with a full Task in that state, else GetTask "
            + "settles the turn after a second (Replies)")
    void states_authRequiredUpdateDoesNotPauseUntilAFullTaskOrGetTaskSaysSo() {
        // the update alone: still running, the stream stays open, and the agent may move on on it
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "deploy");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.event(update("t1", "c1", TaskState.AUTH_REQUIRED));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.RUNNING);
        assertThat(h.turn("m1").phase()).isEqualTo(Phase.STREAMING);
        assertThat(h.all(Effect.CloseStream.class)).as("the stream is not cut").isEmpty();
        h.stream(update("t1", "c1", TaskState.WORKING), artifact("t1", "c1", "a1", "deployed", false),
                task("t1", "c1", TaskState.COMPLETED, "deployed"));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(h.views("m1")).doesNotContain(TurnView.PAUSED);

        // a stream that ends on the update: GetTask after a second, and its auth-required pauses the turn
        EngineHarness ended = EngineHarness.a2a();
        ended.firstTurn("m1", "deploy");
        ended.stream(task("t1", "c1", TaskState.WORKING), update("t1", "c1", TaskState.AUTH_REQUIRED));
        assertThat(ended.lastView("m1")).isEqualTo(TurnView.RUNNING);
        ended.advance(Duration.ofMillis(999));
        assertThat(ended.all(Effect.GetTask.class)).isEmpty();
        ended.advance(Duration.ofMillis(1));
        assertThat(ended.call(Effect.GetTask.class).taskId()).isEqualTo("t1");
        ended.read(task("t1", "c1", TaskState.AUTH_REQUIRED));
        assertThat(ended.lastView("m1")).isEqualTo(TurnView.PAUSED);
        assertThat(ended.turn("m1").phase()).isEqualTo(Phase.PAUSED_AUTH);
        assertThat(ended.nextCall(Duration.ofDays(2))).as("no prompt, no timeout").isNull();
        assertThat(ended.all(Effect.AskQuestion.class)).isEmpty();

        // a stream that ends on the update, and GetTask shows the agent has moved on: followed, never paused
        EngineHarness moved = EngineHarness.a2a();
        moved.firstTurn("m1", "deploy");
        moved.stream(task("t1", "c1", TaskState.WORKING), update("t1", "c1", TaskState.AUTH_REQUIRED));
        assertThat(moved.nextCall(Duration.ofSeconds(1))).isInstanceOf(Effect.GetTask.class);
        moved.read(task("t1", "c1", TaskState.WORKING));
        assertThat(moved.expect(Effect.Subscribe.class).taskId()).isEqualTo("t1");
        assertThat(moved.views("m1")).doesNotContain(TurnView.PAUSED);
    }

    @Test
    @DisplayName("Task states: any other terminal state — treated as failed")
    void states_anyOtherTerminalStateIsTreatedAsFailed() {
        // the model reads states it does not know (0.3 "unknown", 1.0 UNSPECIFIED) as UNSPECIFIED
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.stream(task("t1", "c1", TaskState.WORKING), task("t1", "c1", new TaskStatus(TaskState.UNSPECIFIED, null, null)));
        assertThat(h.nextCall(Duration.ofSeconds(1))).isInstanceOf(Effect.GetTask.class);
        h.read(task("t1", "c1", TaskState.UNSPECIFIED));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.FAILED);
        assertThat(h.notices()).containsExactly(Notices.TASK_FAILED);
        assertThat(h.finished("m1")).isTrue();
    }
}
