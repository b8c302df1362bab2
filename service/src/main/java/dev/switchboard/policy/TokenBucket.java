package dev.switchboard.policy;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A token bucket without a lock: {@code burst} calls at once, then {@code rate} a second. It keeps one number, the
 * time at which the bucket would be full again (the generic cell rate algorithm's "theoretical arrival time"), and
 * moves it with compare-and-set, so callers on every event loop take tokens without waiting for each other. Time
 * comes from an injected nanosecond clock: tests move a virtual one instead of sleeping.
 */
public final class TokenBucket {

    private final long intervalNanos;
    private final long capacityNanos;
    private final LongSupplier nanos;
    /** When the bucket is full again; at or before now: full. */
    private final AtomicLong fullAt;

    public TokenBucket(double rate, int burst, LongSupplier nanos) {
        if (!(rate > 0) || burst < 1) {
            throw new IllegalArgumentException("rate must be above 0 and burst at least 1");
        }
        this.intervalNanos = Math.max(1, (long) (1_000_000_000L / rate));
        this.capacityNanos = intervalNanos * burst;
        this.nanos = nanos;
        this.fullAt = new AtomicLong(nanos.getAsLong());
    }

    /** 0 when a token was taken; else the nanoseconds until one is there (nothing is taken). */
    public long take() {
        while (true) {
            long now = nanos.getAsLong();
            long full = fullAt.get();
            long next = Math.max(full, now) + intervalNanos;
            long owed = next - now;
            if (owed > capacityNanos) {
                return owed - capacityNanos;
            }
            if (fullAt.compareAndSet(full, next)) {
                return 0;
            }
        }
    }

    /** No token taken for long enough that it is full: forgetting it changes nothing. */
    public boolean idle() {
        return fullAt.get() - nanos.getAsLong() <= 0;
    }

    /** Whole seconds until a token, rounded up, at least 1: what Retry-After says. */
    public static long retryAfterSeconds(long waitNanos) {
        return Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L);
    }
}
