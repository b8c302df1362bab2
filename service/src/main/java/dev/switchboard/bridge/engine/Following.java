package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import java.time.Instant;

/**
 * Seed: Methods, GetTask and SubscribeToTask, with the Replies rows on dropped and silent streams.
 * A task whose stream was lost is read, then followed with a subscription or polled, and cancelled
 * after an hour without a sign of life (Methods, CancelTask).
 */
final class Following {

    private Following() {}

    /**
     * A dropped stream is settled (or followed again) by GetTask after a second. A lost subscription
     * backs off while the task shows no change, so a task whose subscriptions keep ending is not read
     * every second.
     */
    static void lost(Step s) {
        markLost(s);
        if (s.turn().following().subscribed()) {
            poll(s, null);
        } else {
            Timers.waitThen(s, Turn.Next.GET_TASK, s.d.settleDelay());
        }
    }

    private static void markLost(Step s) {
        if (s.turn().following().streamLostAt() == null) {
            s.following(f -> f.withStreamLostAt(s.now));
        }
    }

    static void readTask(Step s) {
        String taskId = s.turn().taskId();
        if (taskId == null) {
            Errors.unknownOutcome(s, null);
            return;
        }
        s.phase(Phase.READING_TASK);
        s.emit(new Effect.GetTask(s.nextGen(), taskId));
    }

    static void taskRead(Step s, Task task) {
        String known = s.turn().taskId();
        if (known != null && task.id() != null && !known.equals(task.id())) {
            poll(s, null);
            return;
        }
        boolean moved = Replies.changed(s, task);
        if (moved) {
            s.following(f -> f.withLastSignOfLife(s.now).withPollAttempt(0));
        }
        if (task.contextId() != null) {
            Replies.adoptContext(s, task.contextId());
        }
        if (s.turn().phase() == Phase.CANCELLING) {
            Cancels.cancelChecked(s, task);
            return;
        }
        if (lifeless(s, task.state())) {
            // Methods, CancelTask: no sign of life for an hour after the stream was lost
            Cancels.cancel(s, Notices.NO_SIGN_OF_LIFE, Outcome.CANCELED);
            return;
        }
        Turn.Question q = s.turn().question();
        if (q.answerPending() && Questions.sameQuestion(s.session(), task.status())) {
            Questions.answerStillWanted(s);
            return;
        }
        if (q.answerPending() && !q.answerSent()) {
            Questions.replyIsNotAnAnswer(s); // Task states / Methods: the agent has moved on; follow it
        }
        if (task.artifacts() != null) {
            Replies.replaceArtifacts(s, task.artifacts());
        }
        s.following(f -> f.withLastEventWasTask(true));
        if (task.state() == TaskState.AUTH_REQUIRED && s.turn().progress().lastState() == TaskState.AUTH_REQUIRED && !moved
                && s.turn().view() == TurnView.PAUSED) {
            s.phase(Phase.PAUSED_AUTH); // still paused: the typed reply keeps waiting
            return;
        }
        TaskStates.status(s, task.status(), true);
    }

    /** A task the stream lost, in a running state, silent for an hour. */
    static boolean lifeless(Step s, TaskState state) {
        Turn.Following f = s.turn().following();
        if (f.streamLostAt() == null || state == null || state.isTerminal() || state.isInterrupted()) {
            return false;
        }
        Instant quietSince = f.lastSignOfLife() == null || f.lastSignOfLife().isBefore(f.streamLostAt())
                ? f.streamLostAt() : f.lastSignOfLife();
        return !s.now.isBefore(quietSince.plus(s.d.noSignOfLife()));
    }

    /** A running task read with GetTask is followed with SubscribeToTask, or polled without it. */
    static void follow(Step s) {
        if (s.turn().following().subscribeUnsupported()) {
            poll(s, null);
        } else {
            subscribe(s);
        }
    }

    /** SubscribeToTask: after a dropped stream, when GetTask shows the task still running. */
    static void subscribe(Step s) {
        s.phase(Phase.SUBSCRIBING);
        Sends.openCall(s, true);
        s.view(TurnView.RUNNING);
        long gen = s.nextGen();
        s.emit(new Effect.Subscribe(gen, s.turn().taskId()));
        Timers.armSilence(s, gen);
    }

    /** GetTask again with a backoff of up to a minute (or the agent's Retry-After). */
    static void poll(Step s, CallFailure failure) {
        markLost(s);
        if (lifeless(s, s.turn().progress().lastState())) {
            Cancels.cancel(s, Notices.NO_SIGN_OF_LIFE, Outcome.CANCELED);
            return;
        }
        s.following(f -> f.withPollAttempt(f.pollAttempt() + 1));
        Duration retryAfter = failure == null ? null : failure.retryAfter();
        Timers.waitThen(s, Turn.Next.GET_TASK,
                s.d.delay(s.turn().following().pollAttempt(), s.d.pollBackoffMax(), retryAfter));
    }

    /** Replies: no event for 5 minutes cuts the stream; the task is followed again with GetTask. */
    static void silence(Step s) {
        s.emit(new Effect.CloseStream());
        if (s.turn().taskId() != null) {
            markLost(s);
            readTask(s);
        } else {
            Errors.unknownOutcome(s, null);
        }
    }
}
