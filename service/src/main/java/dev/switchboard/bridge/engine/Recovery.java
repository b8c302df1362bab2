package dev.switchboard.bridge.engine;

import java.time.Instant;

/**
 * B14: after a restart, unfinished turns are recovered as the seed says. Methods, GetTask: before
 * following a task after a restart. Methods, ListTasks: on recovery, for a turn whose outcome is unknown
 * (1.0 with a context; otherwise it is sent again). Waits, questions and cancels resume; queued turns wait.
 */
final class Recovery {

    private Recovery() {}

    static void restarted(Step s) {
        Turn turn = s.session().active().orElse(null);
        if (turn == null) {
            if (!s.session().turns().isEmpty()) {
                Discovery.begin(s);
            }
            return;
        }
        switch (turn.phase()) {
            case FETCHING_CARD -> Discovery.begin(s);
            case SENDING, STREAMING, SUBSCRIBING, READING_TASK, LISTING -> {
                if (turn.taskId() != null) {
                    Following.readTask(s);
                } else {
                    if (turn.retries().troubleSince() == null) {
                        s.retries(r -> r.withTroubleSince(s.now));
                    }
                    Lookups.lookup(s);
                }
            }
            case WAITING -> {
                long gen = s.nextGen();
                s.emit(new Effect.ScheduleTimer(gen, notBefore(s, turn.waitUntil())));
                Instant noticeAt = Errors.busyNoticeAt(s);
                if (noticeAt != null && turn.waitUntil() != null && noticeAt.isBefore(turn.waitUntil())) {
                    s.emit(new Effect.ScheduleTimer(gen, notBefore(s, noticeAt)));
                }
            }
            case PAUSED_INPUT -> {
                if (turn.question().deadline() != null) {
                    s.emit(new Effect.ScheduleTimer(s.nextGen(), notBefore(s, turn.question().deadline())));
                }
            }
            case CANCELLING -> Cancels.issueCancel(s);
            default -> { }
        }
    }

    private static Instant notBefore(Step s, Instant at) {
        return at == null || at.isBefore(s.now) ? s.now : at;
    }
}
