package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.http;
import static dev.switchboard.bridge.engine.Wire.rpc;
import static dev.switchboard.bridge.engine.Wire.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** B13: cancels are retried a few times and a failed one is reported; GetTask when a cancel fails. */
class CancelsTest {

    private static EngineHarness cancelling() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        h.advance(Duration.ofHours(1));
        h.call(Effect.CancelTask.class);
        return h;
    }

    @Test
    @DisplayName("B13: an accepted cancel ends the turn as canceled, with only the reason posted")
    void cancels_acceptedCancelEndsTheTurn() {
        EngineHarness h = cancelling();
        h.cancelAccepted(task("t1", "c1", TaskState.CANCELED));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.CANCELED);
        assertThat(h.notices()).containsExactly(Notices.QUESTION_TIMED_OUT);
        assertThat(h.session.idle()).isTrue();
    }

    @Test
    @DisplayName("B13: a cancel that fails is checked with GetTask, retried a few times with a backoff, then reported as failed")
    void cancels_failedCancelIsRetriedAFewTimesThenReported() {
        EngineHarness h = cancelling();
        h.chat("m2", "next question"); // waits behind the cancel
        h.agent(call -> {
            if (call instanceof Effect.CancelTask) {
                return EngineHarness.replyFailure(call, http(500));
            }
            if (call instanceof Effect.GetTask) {
                return EngineHarness.replyRead(call, task("t1", "c1", Wire.asking("q1", EngineHarness.T0, "Which day?")));
            }
            return null;
        });
        h.fail(http(500));
        h.advance(Duration.ofMinutes(2));
        assertThat(h.all(Effect.CancelTask.class)).hasSize(3);
        assertThat(h.all(Effect.GetTask.class)).hasSize(3);
        assertThat(h.gapsOf(Effect.CancelTask.class)).allMatch(g -> g.compareTo(Duration.ZERO) > 0);
        assertThat(h.notices()).containsExactly(Notices.QUESTION_TIMED_OUT, Notices.CANCEL_FAILED);
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.call(Effect.SendStream.class).message().messageId()).isEqualTo("m2");
    }

    @Test
    @DisplayName("B13: a cancel that fails on a task that has ended meanwhile needs no retry and no report")
    void cancels_failedCancelOnAnEndedTaskIsNotReported() {
        EngineHarness h = cancelling();
        h.fail(rpc(JsonRpcError.TASK_NOT_CANCELABLE));
        h.read(task("t1", "c1", TaskState.COMPLETED, "finished anyway"));
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.notices()).containsExactly(Notices.QUESTION_TIMED_OUT);
        assertThat(h.all(Effect.CancelTask.class)).hasSize(1);

        // a task the agent no longer knows has nothing left to cancel
        EngineHarness gone = cancelling();
        gone.fail(rpc(JsonRpcError.TASK_NOT_FOUND));
        assertThat(gone.finished("m1")).isTrue();
        assertThat(gone.notices()).containsExactly(Notices.QUESTION_TIMED_OUT);
    }

    @Test
    @DisplayName("B13: when the check itself fails, the cancel is still retried, then reported")
    void cancels_failedCheckStillRetriesTheCancel() {
        EngineHarness h = cancelling();
        h.agent(call -> EngineHarness.replyFailure(call, Wire.dropped()));
        h.fail(Wire.dropped());
        h.advance(Duration.ofMinutes(2));
        assertThat(h.all(Effect.CancelTask.class)).hasSize(3);
        assertThat(h.notices()).last().isEqualTo(Notices.CANCEL_FAILED);
    }

    @Test
    @DisplayName("B13: late results of a finished cancel are stale")
    void cancels_lateResultsAreStale() {
        EngineHarness h = cancelling();
        Effect.CancelTask first = h.call(Effect.CancelTask.class);
        h.cancelAccepted(task("t1", "c1", TaskState.CANCELED));
        h.feed(EngineHarness.failed(first, http(500), false));
        assertThat(h.last).isEmpty();
    }
}
