package dev.switchboard.bridge.engine;

import java.time.Duration;

/**
 * The agent contract's durations, each defaulting to the seed's value. Operators and integration
 * tests may shorten them (the {@code contract} field of the Server resource); engine tests use the
 * defaults on a virtual clock.
 *
 * @param giveUpAfter a card that cannot be fetched, a turn not sent (4xx) or of unknown outcome fails after this (15 min)
 * @param busyNoticeAfter a turn refused as busy (-32004) is told to the thread after this (2 min)
 * @param silenceLimit a stream with no event for this long is cut and the task followed again (5 min)
 * @param noSignOfLife a task silent this long after its stream was lost is cancelled (1 h)
 * @param responseHeaders every call's response headers must arrive within this, streams included (30 s)
 * @param settleDelay a stream that did not end with a full settled Task is read with GetTask after this (1 s)
 * @param pollBackoffMax GetTask polling backs off up to this (1 min)
 * @param retryBackoffMax resends and card fetches back off up to this (30 s)
 * @param retryAfterMax an agent's Retry-After is honoured up to this (1 day)
 * @param cancelAttempts a cancel is tried this many times before it is reported as failed (3)
 */
public record ContractDurations(
        Duration giveUpAfter,
        Duration busyNoticeAfter,
        Duration silenceLimit,
        Duration noSignOfLife,
        Duration responseHeaders,
        Duration settleDelay,
        Duration pollBackoffMax,
        Duration retryBackoffMax,
        Duration retryAfterMax,
        int cancelAttempts) {

    public static final ContractDurations DEFAULTS = new ContractDurations(
            Duration.ofMinutes(15), Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofHours(1),
            Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofSeconds(30),
            Duration.ofDays(1), 3);

    /** Exponential backoff from one second, doubled per attempt, up to {@code cap}. */
    public static Duration backoff(int attempt, Duration cap) {
        long seconds = 1L << Math.min(20, Math.max(0, attempt - 1));
        Duration d = Duration.ofSeconds(seconds);
        return d.compareTo(cap) > 0 ? cap : d;
    }

    /**
     * The backoff, or the agent's Retry-After (capped at {@code retryAfterMax}) when that is longer: a Retry-After
     * shorter than the backoff (0, say) never makes a retry come sooner.
     */
    public Duration delay(int attempt, Duration cap, Duration retryAfter) {
        Duration backoff = backoff(attempt, cap);
        if (retryAfter != null && !retryAfter.isNegative()) {
            Duration honoured = retryAfter.compareTo(retryAfterMax) > 0 ? retryAfterMax : retryAfter;
            return honoured.compareTo(backoff) > 0 ? honoured : backoff;
        }
        return backoff;
    }
}
