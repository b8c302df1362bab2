package dev.switchboard.gateway;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The recent events of one task's relayed stream (G13), each already carrying its {@code id: <taskId>:<seq>} line,
 * bounded in count, bytes and age. One relayed stream at a time writes it (the task's source); callers resuming
 * with {@code Last-Event-ID} are replayed what they missed and then follow the source live. Written from the source's
 * event loop and read from the resumers': every method holds the buffer's lock, and a follower is called under it, so
 * that a replay and the live events after it reach each follower in order, each exactly once.
 */
final class TaskBuffer {

    /** A caller following the task's stream after its replay; called under the buffer's lock, so it must not block. */
    interface Follower {
        void event(Buffer frame);

        void end();
    }

    /** What a resume found. */
    sealed interface Resume {
        /** Events after the given one are gone (or never were): {@code oldest} is the first still held, -1 if none. */
        record Gap(long oldest, long newest) implements Resume {}

        /** The source is live: the follower has been given {@code missed} and follows it now. */
        record Following(List<Buffer> missed) implements Resume {}

        /** The stream has ended; {@code terminal} when its last event ended the task. */
        record Ended(List<Buffer> missed, boolean terminal) implements Resume {}
    }

    private record Entry(long seq, Buffer frame, long nanos) {}

    private final String taskId;
    /** The caller whose stream first fed the buffer: only it may resume (an agent may hold a task to its caller). */
    private final String owner;
    private final StreamBufferSettings limits;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final List<Follower> followers = new ArrayList<>(1);
    private long bytes;
    private long nextSeq = 1;
    /** The newest sequence number ever given out (held or not): a resume from a later one is a gap too. */
    private long newest;
    private Object source;
    private long touchedNanos = System.nanoTime();

    TaskBuffer(String taskId, String owner, StreamBufferSettings limits) {
        this.taskId = taskId;
        this.owner = owner;
        this.limits = limits;
    }

    String taskId() {
        return taskId;
    }

    /** True when {@code callerId} may read and feed this buffer: the caller whose stream made it. */
    boolean ownedBy(String callerId) {
        return owner.equals(callerId);
    }

    /** Makes {@code stream} the task's source unless another live stream is; true when it now is. */
    synchronized boolean claim(Object stream) {
        if (source != null && source != stream) {
            return false;
        }
        source = stream;
        touchedNanos = System.nanoTime();
        return true;
    }

    /** Appends an event of the source; returns it with its id line, as relayed to the source's caller and followers. */
    synchronized Buffer append(Object stream, Buffer frame) {
        if (source != stream) {
            return frame;
        }
        long seq = nextSeq++;
        newest = seq;
        Buffer withId = StreamEventFields.withId(frame, taskId + ":" + seq);
        long now = System.nanoTime();
        entries.addLast(new Entry(seq, withId, now));
        bytes += withId.length();
        touchedNanos = now;
        trim(now);
        for (Follower f : followers) {
            f.event(withId);
        }
        return withId;
    }

    /** The source's stream ended (any way): followers are ended, and the next resume may subscribe upstream again. */
    synchronized void release(Object stream) {
        if (source != stream) {
            return;
        }
        source = null;
        touchedNanos = System.nanoTime();
        for (Follower f : followers) {
            f.end();
        }
        followers.clear();
    }

    /**
     * A caller resuming after event {@code afterSeq}. With the source live, {@code follower} is attached (and must
     * write {@code missed} before anything it is then given). With it ended and the task not, {@code newSource}
     * becomes the source (the caller's new stream to the agent continues the numbering).
     */
    synchronized Resume resume(long afterSeq, Follower follower, Object newSource) {
        long now = System.nanoTime();
        trim(now);
        long oldest = entries.isEmpty() ? -1 : entries.peekFirst().seq();
        boolean covered = afterSeq <= newest && (afterSeq + 1 >= (oldest < 0 ? newest + 1 : oldest));
        if (!covered) {
            return new Resume.Gap(oldest, newest);
        }
        List<Buffer> missed = new ArrayList<>();
        for (Entry e : entries) {
            if (e.seq() > afterSeq) {
                missed.add(e.frame());
            }
        }
        touchedNanos = now;
        if (source != null) {
            followers.add(follower);
            return new Resume.Following(missed);
        }
        // read only now, of one event: the relay never parses what it buffers
        boolean terminal = !entries.isEmpty() && StreamEventFields.of(entries.peekLast().frame()).terminal();
        if (!terminal) {
            source = newSource;
        }
        return new Resume.Ended(missed, terminal);
    }

    synchronized void unfollow(Follower follower) {
        followers.remove(follower);
    }

    synchronized boolean hasFollowers() {
        return !followers.isEmpty();
    }

    /** Forgettable: no live source and nothing written for {@code age}. */
    synchronized boolean idleSince(long nanos) {
        return source == null && touchedNanos < nanos;
    }

    synchronized long touchedNanos() {
        return touchedNanos;
    }

    synchronized boolean live() {
        return source != null;
    }

    private void trim(long now) {
        long oldestAllowed = now - limits.age().toNanos();
        while (!entries.isEmpty() && (entries.size() > limits.events() || bytes > limits.bytes()
                || entries.peekFirst().nanos() < oldestAllowed)) {
            bytes -= entries.removeFirst().frame().length();
        }
    }
}
