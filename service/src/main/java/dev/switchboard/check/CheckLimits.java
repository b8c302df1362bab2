package dev.switchboard.check;

import dev.switchboard.bridge.engine.Contract;
import java.time.Duration;

/**
 * How long each probe may take, so a hung agent gives a FAIL with a reason, never a hang.
 *
 * @param headersTimeout response headers must arrive within this (the seed's 30 s)
 * @param silenceLimit a stream with no event for this long breaks replies.event-every-5-minutes (the seed's 5 min);
 *     tests inject a shorter one
 * @param idleLimit a stream with no event for this long is cut by the checker: the silence limit, or less with --quick
 * @param turnLimit a turn (its stream, then GetTask until the task settles) is given up after this
 * @param quick replies.event-every-5-minutes is skipped
 */
public record CheckLimits(Duration headersTimeout, Duration silenceLimit, Duration idleLimit, Duration turnLimit,
        boolean quick) {

    public CheckLimits {
        for (Duration d : new Duration[] {headersTimeout, silenceLimit, idleLimit, turnLimit}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("check limits must be positive durations");
            }
        }
    }

    /** --quick: a minute per turn at most, a stream silent for 20 s is cut; the 5-minute row is skipped. */
    public static CheckLimits quickCheck() {
        return new CheckLimits(Contract.durations().responseHeaders(), Contract.silenceLimit(), Duration.ofSeconds(20),
                Duration.ofMinutes(1), true);
    }

    /** The seed's limits: streams are watched for 5 minutes of silence; a turn gets 15 minutes. */
    public static CheckLimits fullCheck() {
        Duration silence = Contract.silenceLimit();
        return new CheckLimits(Contract.durations().responseHeaders(), silence, silence.plusSeconds(5),
                Contract.durations().giveUpAfter(), false);
    }

    public CheckLimits withHeadersTimeout(Duration d) {
        return new CheckLimits(d, silenceLimit, idleLimit, turnLimit, quick);
    }

    /** A shorter silence limit (tests); outside --quick the checker watches a stream for a little longer than it. */
    public CheckLimits withSilenceLimit(Duration d) {
        return new CheckLimits(headersTimeout, d, quick ? idleLimit : d.plus(d.dividedBy(2)), turnLimit, quick);
    }

    public CheckLimits withTurnLimit(Duration d) {
        return new CheckLimits(headersTimeout, silenceLimit, idleLimit, d, quick);
    }

    public CheckLimits withIdleLimit(Duration d) {
        return new CheckLimits(headersTimeout, silenceLimit, d, turnLimit, quick);
    }

    /** A unary call (card, GetTask, CancelTask, ListTasks) must have answered completely by then. */
    Duration callTimeout() {
        return headersTimeout.plusSeconds(15);
    }
}
