package dev.switchboard.bridge.engine;

import java.time.Duration;
import java.time.Instant;

/**
 * Waiting, as effects: every deadline a phase has (silence, question, resend, busy notice) and what a
 * fired timer does. A timer that is not yet due (pushed back, or fired a little early) is set again for
 * its deadline; one whose generation was superseded never gets here.
 */
final class Timers {

    private Timers() {}

    /** Replies: a stream with no event for 5 minutes is cut. */
    static void armSilence(Step s, long gen) {
        Instant deadline = s.now.plus(s.d.silenceLimit());
        s.following(f -> f.withSilenceDeadline(deadline));
        s.emit(new Effect.ScheduleTimer(gen, deadline));
    }

    static void fired(Step s) {
        Turn t = s.turn();
        switch (t.phase()) {
            case SENDING, STREAMING, SUBSCRIBING -> {
                Instant deadline = t.following().silenceDeadline();
                if (due(s, deadline)) {
                    Following.silence(s);
                } else {
                    rearm(s, deadline);
                }
            }
            case PAUSED_INPUT -> {
                Instant deadline = t.question().deadline();
                if (deadline == null) {
                    return;
                }
                if (due(s, deadline)) {
                    // Methods, CancelTask: when a question times out
                    Cancels.cancel(s, Notices.QUESTION_TIMED_OUT, Outcome.CANCELED);
                } else {
                    rearm(s, deadline);
                }
            }
            case WAITING -> {
                Errors.noticeBusyIfDue(s);
                Instant until = s.turn().waitUntil();
                if (due(s, until)) {
                    wake(s);
                } else {
                    Instant noticeAt = Errors.busyNoticeAt(s);
                    rearm(s, noticeAt != null && noticeAt.isBefore(until) ? noticeAt : until);
                }
            }
            default -> { }
        }
    }

    private static boolean due(Step s, Instant deadline) {
        return deadline == null || !s.now.isBefore(deadline);
    }

    private static void rearm(Step s, Instant at) {
        s.emit(new Effect.ScheduleTimer(s.session().gen(), at));
    }

    private static void wake(Step s) {
        Turn.Next next = s.turn().waiting().next();
        s.turn(t -> t.withWaiting(Turn.Wait.NONE));
        switch (next) {
            case FETCH_CARD -> {
                s.phase(Phase.FETCHING_CARD);
                s.emit(new Effect.FetchCard(s.nextGen()));
            }
            case SEND -> {
                if (s.turn().question().answerMessageId() != null) {
                    Questions.sendAnswer(s);
                } else {
                    Discovery.begin(s);
                }
            }
            case LOOKUP -> Lookups.lookup(s);
            case GET_TASK -> Following.readTask(s);
            case CANCEL -> Cancels.issueCancel(s);
        }
    }

    static void waitThen(Step s, Turn.Next next, Duration delay) {
        waitUntil(s, next, s.now.plus(delay));
    }

    static void waitUntil(Step s, Turn.Next next, Instant at) {
        s.phase(Phase.WAITING);
        s.turn(t -> t.withWaiting(new Turn.Wait(next, at)));
        s.emit(new Effect.ScheduleTimer(s.nextGen(), at));
    }
}
