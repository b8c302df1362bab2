package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;

/** Seed: Task states. What each state of the task does to the turn. */
final class TaskStates {

    private TaskStates() {}

    /**
     * Applies a task status. {@code fromRead} is true when it comes from a full Task read with
     * GetTask (or ListTasks): then it is settled, and a running state means following the task.
     * From a stream, only a full Task settles; an update's end state waits for the stream's end.
     */
    static void status(Step s, TaskStatus status, boolean fromRead) {
        TaskState state = status.state();
        boolean settled = s.turn().following().lastEventWasTask() || fromRead;
        if (state != TaskState.INPUT_REQUIRED) {
            s.question(q -> q.withAnswerPending(false)); // the agent moved past the question
        }
        if (state != TaskState.INPUT_REQUIRED || !settled) {
            record(s, status);
        }
        switch (state) {
            case SUBMITTED, WORKING -> {
                // shows the turn as running
                s.view(TurnView.RUNNING);
                if (fromRead) {
                    Following.follow(s);
                }
            }
            case COMPLETED -> {
                if (settled) {
                    complete(s);
                } else {
                    s.view(TurnView.RUNNING);
                }
            }
            case INPUT_REQUIRED -> {
                if (settled) {
                    Questions.question(s, status, fromRead);
                } else {
                    s.view(TurnView.RUNNING);
                }
            }
            case AUTH_REQUIRED -> {
                if (!settled) {
                    // an update is not a full Task: the stream's end (or GetTask) settles it
                    s.view(TurnView.RUNNING);
                    return;
                }
                // paused, with no prompt and no timeout; later replies wait behind it
                s.phase(Phase.PAUSED_AUTH);
                s.view(TurnView.PAUSED);
                s.nextGen();
                s.emit(new Effect.CloseStream());
            }
            case FAILED, REJECTED, CANCELED -> {
                if (settled) {
                    endWithState(s, state, status.message());
                } else {
                    s.view(TurnView.RUNNING);
                }
            }
            default -> {
                // any other terminal state is treated as failed; an unknown state met while reading a
                // settled task is one
                if (fromRead) {
                    endWithState(s, TaskState.FAILED, status.message());
                }
            }
        }
    }

    /** The state and status timestamp last seen (a status without a timestamp keeps the last one). */
    static void record(Step s, TaskStatus status) {
        s.progress(p -> {
            Turn.Progress recorded = p.withLastState(status.state());
            return status.timestamp() == null ? recorded : recorded.withLastStatusTimestamp(status.timestamp());
        });
    }

    /** completed: ends the turn; a notice only when there was no artifact text. */
    static void complete(Step s) {
        if (s.turn().answer().isEmpty()) {
            s.notice(Notices.NO_OUTPUT);
        }
        s.done(Outcome.COMPLETED, TurnView.COMPLETED);
    }

    /** failed (with its category), rejected and canceled end the turn with a notice. */
    static void endWithState(Step s, TaskState state, Message statusMessage) {
        switch (state) {
            case REJECTED -> {
                s.notice(Notices.REJECTED);
                s.done(Outcome.REJECTED, TurnView.REJECTED);
            }
            case CANCELED -> {
                s.notice(Notices.CANCELED);
                s.done(Outcome.CANCELED, TurnView.CANCELED);
            }
            default -> {
                s.notice(Notices.taskFailed(FailureCategory.of(statusMessage)));
                s.done(Outcome.FAILED, TurnView.FAILED);
            }
        }
    }
}
