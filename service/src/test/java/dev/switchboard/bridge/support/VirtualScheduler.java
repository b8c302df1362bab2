package dev.switchboard.bridge.support;

import dev.switchboard.bridge.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The chat bridge's time for a test: a clock that stands still until the test {@link #advance advances} it, and the
 * timers set on it, which fire when it passes their instant — so a 15-minute retry window takes as long as the calls
 * in it, not 15 minutes. Each timer fires with the clock at its own instant, in order; after each, the advance lets
 * the driver act on it (its lane steps, its calls to a local agent answer) before going on to the next.
 */
public final class VirtualScheduler implements Scheduler {

    /**
     * Real time the driver gets to act on a timer that fired: until it sets another one (the next backoff, say), or for
     * this long at most (a timer that led to nothing more: a stale one, the last step of a turn).
     */
    private static final Duration SETTLE_MAX = Duration.ofMillis(600);
    /** After the driver set a timer, or after the idle sweep: what it started meanwhile is given this long. */
    private static final Duration QUIET = Duration.ofMillis(30);

    private final VirtualClock clock;
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private long sequence;
    /** timers set from the driver's threads (its lanes), not from within a task the advance ran */
    private long setByDriver;
    private volatile Thread advancing;

    public VirtualScheduler(Instant start) {
        this.clock = new VirtualClock(start);
    }

    /** Starts at a round instant, so a test's failure message reads easily. */
    public VirtualScheduler() {
        this(Instant.parse("2030-01-01T00:00:00Z"));
    }

    @Override
    public Clock clock() {
        return clock;
    }

    public Instant now() {
        return clock.instant();
    }

    @Override
    public synchronized Timer schedule(Duration delay, Runnable task) {
        Task t = new Task(clock.instant().plus(delay.isNegative() ? Duration.ZERO : delay), sequence++, task);
        tasks.add(t);
        if (Thread.currentThread() != advancing) {
            setByDriver++;
        }
        return () -> {
            synchronized (VirtualScheduler.this) {
                tasks.remove(t);
            }
        };
    }

    /** The instants of the timers set and not fired yet, earliest first. */
    public synchronized List<Instant> pending() {
        List<Task> sorted = new ArrayList<>(tasks);
        sorted.sort(null);
        return sorted.stream().map(Task::at).toList();
    }

    /** Whether a timer is set for exactly {@code at}. */
    public boolean pendingAt(Instant at) {
        return pending().contains(at);
    }

    /**
     * Moves the clock on by {@code d}: every timer due by then fires, each with the clock at its instant, and the
     * driver settles after each; the clock ends at exactly now + {@code d}.
     */
    public void advance(Duration d) {
        Instant target = clock.instant().plus(d);
        advancing = Thread.currentThread();
        try {
            while (true) {
                Task next;
                long before;
                int pendingBefore;
                synchronized (this) {
                    next = tasks.peek();
                    if (next == null || next.at().isAfter(target)) {
                        break;
                    }
                    tasks.poll();
                    clock.set(next.at());
                    before = setByDriver;
                    pendingBefore = tasks.size();
                }
                next.task().run();
                boolean setItsOwnNext;
                synchronized (this) {
                    setItsOwnNext = tasks.size() > pendingBefore; // the idle sweep: it sets the next sweep itself
                }
                settle(setItsOwnNext ? QUIET : SETTLE_MAX, before);
                pause(QUIET);
            }
        } finally {
            advancing = null;
        }
        clock.set(target);
    }

    /** Waits until the driver set a timer after {@code before}, or for {@code atMost}. */
    private void settle(Duration atMost, long before) {
        long until = System.nanoTime() + atMost.toNanos();
        while (System.nanoTime() < until) {
            synchronized (this) {
                if (setByDriver > before) {
                    return;
                }
            }
            pause(Duration.ofMillis(5));
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Task(Instant at, long seq, Runnable task) implements Comparable<Task> {
        @Override
        public int compareTo(Task o) {
            int c = at.compareTo(o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /** A clock that moves only when it is told to. */
    private static final class VirtualClock extends Clock {
        private volatile Instant now;

        VirtualClock(Instant start) {
            this.now = start;
        }

        void set(Instant at) {
            now = at;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the bridge's clock is UTC");
        }
    }
}
