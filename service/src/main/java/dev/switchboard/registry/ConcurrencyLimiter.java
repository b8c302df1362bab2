package dev.switchboard.registry;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The per-agent cap on calls in flight, sync calls and open streams together (G4). Over the cap a
 * call is refused at once, never queued. A {@link Permit} is released exactly once whatever path the
 * call ends on, so the count cannot drift.
 */
public final class ConcurrencyLimiter {

    private final AtomicInteger inFlight = new AtomicInteger();

    /** A permit, or null when {@code max} calls are already in flight. */
    public Permit tryAcquire(int max) {
        while (true) {
            int now = inFlight.get();
            if (now >= max) {
                return null;
            }
            if (inFlight.compareAndSet(now, now + 1)) {
                return new Permit();
            }
        }
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** One slot; {@link #release()} is idempotent. */
    public final class Permit {
        private final AtomicBoolean released = new AtomicBoolean();

        private Permit() {}

        public void release() {
            if (released.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        }
    }
}
