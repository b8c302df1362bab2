package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The threads the driver holds in memory, one {@link LiveThread} each, and the sweep that drops the idle ones (issue
 * 8): a thread with no unfinished turn and nothing in flight leaves after {@code sessionIdleTimeout} without an input.
 * The sweep runs on the driver's {@link Scheduler}, every half of the timeout (at most a minute).
 */
final class LiveThreads {

    private final ConcurrentHashMap<String, LiveThread> threads = new ConcurrentHashMap<>();
    private final ChatStore store;
    private final Lanes lanes;
    private final Scheduler scheduler;
    private final Clock clock;
    private final Duration idleTimeout;
    private final Duration sweepEvery;
    /** told, on the thread's lane, of each thread the sweep dropped */
    private final Consumer<String> dropped;
    private volatile Scheduler.Timer sweep;
    private volatile boolean stopped;

    LiveThreads(ChatStore store, Lanes lanes, Scheduler scheduler, Duration idleTimeout, Consumer<String> dropped) {
        this.store = store;
        this.lanes = lanes;
        this.scheduler = scheduler;
        this.clock = scheduler.clock();
        this.idleTimeout = idleTimeout;
        this.sweepEvery = Duration.ofMillis(Math.max(10, Math.min(idleTimeout.toMillis() / 2, 60_000)));
        this.dropped = dropped;
        sweepLater();
    }

    /** The thread in memory; null when it is not. */
    LiveThread get(String threadId) {
        return threads.get(threadId);
    }

    /** The thread in memory, loaded from the store when it is not there yet. */
    LiveThread load(String threadId) {
        return threads.computeIfAbsent(threadId, id -> new LiveThread(store.thread(id)
                .orElseThrow(() -> new IllegalStateException("unknown thread " + id))));
    }

    /** The thread in memory, as given when it is not there yet. */
    LiveThread remember(ChatThread thread) {
        return threads.computeIfAbsent(thread.threadId(), id -> new LiveThread(thread));
    }

    /** Drops everything held of the thread: its stream is cut and its timers go. */
    void forget(String threadId) {
        LiveThread t = threads.remove(threadId);
        if (t != null) {
            t.drop();
        }
    }

    boolean contains(String threadId) {
        return threads.containsKey(threadId);
    }

    int size() {
        return threads.size();
    }

    /** How many threads have their session loaded (the open sessions gauge). */
    long sessions() {
        return threads.values().stream().filter(t -> t.session() != null).count();
    }

    Collection<LiveThread> all() {
        return threads.values();
    }

    /** No more sweeps. */
    void stop() {
        stopped = true;
        Scheduler.Timer s = sweep;
        if (s != null) {
            s.cancel();
        }
    }

    private void sweepLater() {
        if (!stopped) {
            sweep = scheduler.schedule(sweepEvery, () -> {
                try {
                    dropIdle();
                } finally {
                    // a sweep that throws must not end sweeping: the periodic timer it replaced kept firing
                    sweepLater();
                }
            });
        }
    }

    /** Each thread is checked on its own lane, so that no input races the check. */
    private void dropIdle() {
        if (stopped) {
            return;
        }
        for (String threadId : Set.copyOf(threads.keySet())) {
            lanes.run(threadId, () -> {
                LiveThread t = threads.get(threadId);
                if (t == null) {
                    return null;
                }
                Session s = t.session();
                if ((s == null || s.idle()) && t.quiet(clock.instant(), idleTimeout) && t.settled()) {
                    threads.remove(threadId, t);
                    dropped.accept(threadId);
                }
                return null;
            });
        }
    }
}
