package dev.switchboard.registry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
        /** Its own flag, not an AtomicBoolean beside it: one object per call instead of two. */
        private static final VarHandle RELEASED;

        static {
            try {
                RELEASED = MethodHandles.lookup().findVarHandle(Permit.class, "released", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unused") // through RELEASED
        private volatile boolean released;

        private Permit() {}

        public void release() {
            if (RELEASED.compareAndSet(this, false, true)) {
                inFlight.decrementAndGet();
            }
        }
    }
}
