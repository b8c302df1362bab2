package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.client.StreamHandle;
import io.opentelemetry.api.trace.Span;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One chat thread while the driver holds it in memory: everything the driver keeps of it is here, so that dropping the
 * thread from memory is removing this one object (issue 9, bounded memory), and nothing of it can be left behind.
 *
 * <p>Most of it is touched only on the thread's lane. What a call's callback touches from an event loop (the open
 * stream, the calls in flight, the pending timers) is safe from any thread; a callback holds the object it was started
 * for, so a late result of a thread that was dropped meanwhile changes nothing of the thread loaded again.
 */
final class LiveThread {

    private final ChatThread thread;
    /** the session as the last step left it; null until the first input loads it */
    private volatile Session session;
    /** the session changed in a step that was not committed, beyond what a chunk changes: the next commit writes it */
    private volatile boolean unsaved;
    private volatile Instant lastInput;
    /** when each unfinished turn was accepted, for the turn duration histogram */
    private final Map<String, Instant> turnStarts = new ConcurrentHashMap<>();
    /** the spans of the unfinished turns this process has made calls for */
    private final Map<String, Span> openSpans = TurnSpans.noSpans();
    private final AtomicReference<StreamHandle> stream = new AtomicReference<>();
    /** calls whose result has not come back yet */
    private final AtomicInteger calls = new AtomicInteger();
    private final Set<PendingTimer> timers = ConcurrentHashMap.newKeySet();

    LiveThread(ChatThread thread) {
        this.thread = thread;
    }

    ChatThread thread() {
        return thread;
    }

    String id() {
        return thread.threadId();
    }

    Session session() {
        return session;
    }

    void session(Session s) {
        session = s;
    }

    boolean unsaved() {
        return unsaved;
    }

    void unsaved(boolean changed) {
        unsaved = changed;
    }

    void input(Instant at) {
        lastInput = at;
    }

    /** No input for {@code idle} up to {@code now}. */
    boolean quiet(Instant now, Duration idle) {
        Instant last = lastInput;
        return last == null || !last.plus(idle).isAfter(now);
    }

    /**
     * Nothing in flight that would bring an input: no open stream, no call waiting for its result, no timer set.
     * A session with nothing in flight and no unfinished turn may leave memory.
     */
    boolean settled() {
        return stream.get() == null && calls.get() == 0 && timers.isEmpty();
    }

    void turnStarted(String messageId, Instant at) {
        turnStarts.put(messageId, at);
    }

    /** When the finished turn was accepted; null when it was not accepted while this thread was in memory. */
    Instant turnFinished(String messageId) {
        return turnStarts.remove(messageId);
    }

    Map<String, Span> openSpans() {
        return openSpans;
    }

    // ---- what calls and timers touch, from any thread ----

    void callStarted() {
        calls.incrementAndGet();
    }

    void callEnded() {
        calls.updateAndGet(n -> Math.max(0, n - 1));
    }

    /** The thread's one stream is now {@code open}; the one before it, if any, is closed. */
    void streamOpened(StreamHandle open) {
        StreamHandle previous = stream.getAndSet(open);
        if (previous != null) {
            previous.close();
        }
    }

    /** {@code open} ended or failed by itself: it is no longer the thread's stream (unless another replaced it). */
    void streamGone(StreamHandle open) {
        stream.compareAndSet(open, null);
    }

    void closeStream() {
        StreamHandle h = stream.getAndSet(null);
        if (h != null) {
            h.close();
        }
    }

    PendingTimer timerSet() {
        PendingTimer t = new PendingTimer();
        timers.add(t);
        return t;
    }

    void timerFired(PendingTimer t) {
        timers.remove(t);
    }

    void cancelTimers() {
        for (PendingTimer t : timers) {
            timers.remove(t);
            t.cancel();
        }
    }

    /** The thread leaves this process: its stream is cut and its timers go; its calls' results will be dropped. */
    void drop() {
        closeStream();
        cancelTimers();
    }

    /**
     * A timer a step asked for, held from before it is set (so that its firing cannot come before it is counted)
     * until it fires or is cancelled.
     */
    static final class PendingTimer {
        private volatile Scheduler.Timer timer;
        private volatile boolean cancelled;

        void set(Scheduler.Timer t) {
            timer = t;
            if (cancelled) {
                t.cancel();
            }
        }

        void cancel() {
            cancelled = true;
            Scheduler.Timer t = timer;
            if (t != null) {
                t.cancel();
            }
        }
    }
}
