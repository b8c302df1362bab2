package dev.switchboard.check;

import static dev.switchboard.check.Evidence.duration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** replies.event-every-5-minutes: the longest silence of each judged turn's stream, judged only from what was observed. */
final class EventGaps {

    private final CheckLimits limits;
    private final List<Turn> judgedTurns = new ArrayList<>();

    EventGaps(CheckLimits limits) {
        this.limits = limits;
    }

    void add(Turn t) {
        judgedTurns.add(t);
    }

    void judge(Verdicts verdicts) {
        Duration limit = limits.silenceLimit();
        if (limits.quick()) {
            verdicts.conclude(RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP, "skipped with --quick (it needs a task that runs "
                    + "longer than " + duration(limit) + ")");
            return;
        }
        if (judgedTurns.isEmpty()) {
            return;
        }
        for (Turn t : judgedTurns) {
            if (t.longestGap().compareTo(limit) >= 0) {
                verdicts.conclude(RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.FAIL, "the " + t.label() + "'s stream went "
                        + duration(t.longestGap()) + " without an event: after " + duration(limit) + " Switchboard cuts the "
                        + "stream and follows the task again with GetTask and SubscribeToTask");
                return;
            }
        }
        Turn longest = judgedTurns.stream().max((a, b) -> a.lasted().compareTo(b.lasted())).orElseThrow();
        if (longest.lasted().compareTo(limit) >= 0) {
            verdicts.conclude(RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.PASS, "the " + longest.label() + "'s stream lasted "
                    + duration(longest.lasted()) + " with at most " + duration(longest.longestGap()) + " between events");
        } else {
            verdicts.conclude(RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP, "every task finished within "
                    + duration(longest.lasted()) + ", before " + duration(limit) + ", so no long task was seen; a long tool "
                    + "call must still send an event at least every " + duration(limit));
        }
    }
}
