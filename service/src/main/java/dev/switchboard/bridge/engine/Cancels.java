package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.Task;

/**
 * Seed: Methods, CancelTask. The reason is posted, then the task cancelled; a failed cancel is
 * checked with GetTask, retried a few times, then reported (the task keeps running on the agent).
 */
final class Cancels {

    private Cancels() {}

    static void cancel(Step s, String notice, Outcome outcome) {
        s.notice(notice);
        s.emit(new Effect.CloseStream());
        s.cancelling(c -> new Turn.Cancelling(0, outcome));
        if (s.turn().taskId() == null) {
            s.done(outcome, TurnView.CANCELED);
            return;
        }
        issueCancel(s);
    }

    static void issueCancel(Step s) {
        s.phase(Phase.CANCELLING);
        s.cancelling(c -> c.withAttempts(c.attempts() + 1));
        s.view(TurnView.CANCELLING);
        s.emit(new Effect.CancelTask(s.nextGen(), s.turn().taskId()));
    }

    static void cancelled(Step s) {
        if (s.turn().phase() == Phase.CANCELLING) {
            ended(s);
        }
    }

    /**
     * Methods, GetTask: when a cancel fails, the task is read; a task that has ended needs no cancel.
     * A task that is gone (-32001) has nothing left to cancel either.
     */
    static void cancelCallFailed(Step s, Input.Call call, int rpc) {
        if (rpc == JsonRpcError.TASK_NOT_FOUND) {
            ended(s);
        } else if (call == Input.Call.CANCEL) {
            s.emit(new Effect.GetTask(s.nextGen(), s.turn().taskId()));
        } else {
            retry(s); // the read failed too
        }
    }

    static void cancelChecked(Step s, Task task) {
        if (task.state().isTerminal()) {
            ended(s);
        } else {
            retry(s);
        }
    }

    /** Retried a few times, then reported as failed; the task keeps running. */
    private static void retry(Step s) {
        int attempts = s.turn().cancelling().attempts();
        if (attempts < s.d.cancelAttempts()) {
            Timers.waitThen(s, Turn.Next.CANCEL, ContractDurations.backoff(attempts, s.d.retryBackoffMax()));
            return;
        }
        cancelFailedForGood(s);
    }

    static void cancelFailedForGood(Step s) {
        s.notice(Notices.CANCEL_FAILED);
        ended(s);
    }

    private static void ended(Step s) {
        Outcome outcome = s.turn().cancelling().outcome();
        s.done(outcome == null ? Outcome.CANCELED : outcome, TurnView.CANCELED);
    }
}
