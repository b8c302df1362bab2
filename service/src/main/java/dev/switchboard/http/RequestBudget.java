package dev.switchboard.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The request bytes all callers of all routes may have buffered in the server at once ({@code
 * gateway.maxRequestBytesInFlight}, the one setting since H2 for the gateway's bodies and every other route's). A
 * route's own maximum bounds one body, not how many: without this, many callers each sending a body just under it
 * — a Slack event of 1 MiB, a registration of 256 KiB, stalled halfway — would hold the heap. A request reserves
 * its declared {@code Content-Length} up front, or grows its reservation chunk by chunk when it declares none, and
 * gives it all back once, when it ends.
 *
 * <p>One atomic counter for every event loop: a reservation is a compare-and-set, no lock.
 */
public final class RequestBudget {

    private final long max;
    private final AtomicLong used = new AtomicLong();

    public RequestBudget(long max) {
        this.max = max;
    }

    public long max() {
        return max;
    }

    public long inUse() {
        return used.get();
    }

    public Reservation open() {
        return new Reservation(max);
    }

    /**
     * A reservation that grows only while all reservations together stay within {@code ceiling} (at most the
     * budget): how bodies read before their sender is known are kept to a share of it, and the rest stays for the
     * callers who are.
     */
    public Reservation open(long ceiling) {
        return new Reservation(Math.min(ceiling, max));
    }

    /** One request's share. Used on that request's event loop only. */
    public final class Reservation {
        private final long ceiling;
        private long held;
        private boolean released;

        private Reservation(long ceiling) {
            this.ceiling = ceiling;
        }

        /** Reserves {@code bytes} more; false (nothing reserved) when the budget has no room for them. */
        public boolean grow(long bytes) {
            if (released) {
                return false;
            }
            while (true) {
                long now = used.get();
                if (now + bytes > ceiling) {
                    return false;
                }
                if (used.compareAndSet(now, now + bytes)) {
                    held += bytes;
                    return true;
                }
            }
        }

        /** What this reservation holds now. */
        public long held() {
            return held;
        }

        /** Gives back everything held; idempotent, so every way a request can end may call it. */
        public void release() {
            if (!released) {
                released = true;
                used.addAndGet(-held);
                held = 0;
            }
        }
    }
}
