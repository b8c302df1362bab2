package dev.switchboard.gateway;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The request bytes all callers may have buffered in the gateway at once ({@code
 * gateway.maxRequestBytesInFlight}). Each agent's concurrency cap bounds calls, not bytes: without
 * this, many callers each sending a body just under {@code maxRequestBytes} would hold gigabytes. A
 * call reserves its declared {@code Content-Length} up front, or grows its reservation chunk by chunk
 * when it declares none, and gives it all back once, when the call ends.
 */
final class RequestBudget {

    private final long max;
    private final AtomicLong used = new AtomicLong();

    RequestBudget(long max) {
        this.max = max;
    }

    long inUse() {
        return used.get();
    }

    Reservation open() {
        return new Reservation();
    }

    /** One call's share. Used on that call's event loop only. */
    final class Reservation {
        private long held;
        private boolean released;

        private Reservation() {}

        /** Reserves {@code bytes} more; false (nothing reserved) when the budget has no room for them. */
        boolean grow(long bytes) {
            if (released) {
                return false;
            }
            while (true) {
                long now = used.get();
                if (now + bytes > max) {
                    return false;
                }
                if (used.compareAndSet(now, now + bytes)) {
                    held += bytes;
                    return true;
                }
            }
        }

        /** Gives back everything held; idempotent. */
        void release() {
            if (!released) {
                released = true;
                used.addAndGet(-held);
                held = 0;
            }
        }
    }
}
