package dev.switchboard.gateway;

import io.vertx.core.buffer.Buffer;

/**
 * A relayed stream's link to its task's buffer (G13): reads events only until one names the task, then gives every
 * event its {@code id:} and keeps it. A stream whose task already has another live source, or that finds no room,
 * is relayed as before, without ids. Called on the relaying call's event loop.
 */
final class StreamTap {

    /** Events read without finding a task: after a few, the stream is taken for one outside any task. */
    private static final int LOOKS = 3;

    private final TaskStreams streams;
    private final String agentId;
    private final String callerId;

    private TaskBuffer buffer;
    private boolean off;
    private int looked;

    StreamTap(TaskStreams streams, String agentId, String callerId) {
        this.streams = streams;
        this.agentId = agentId;
        this.callerId = callerId;
        this.off = !streams.enabled();
    }

    /** A tap already the source of {@code buffer} (a resume that subscribed to the agent again). */
    StreamTap(TaskStreams streams, String agentId, String callerId, TaskBuffer buffer) {
        this(streams, agentId, callerId);
        this.buffer = buffer;
    }

    /** The frame as the caller gets it: with its id line once the task is known, else unchanged. */
    Buffer frame(Buffer frame) {
        if (buffer != null) {
            return StreamEventFields.isEvent(frame) ? buffer.append(this, frame) : frame;
        }
        if (off || !StreamEventFields.isEvent(frame)) {
            return frame;
        }
        String taskId = StreamEventFields.of(frame).taskId();
        if (taskId == null) {
            off = ++looked >= LOOKS;
            return frame;
        }
        TaskBuffer found = streams.open(agentId, taskId, callerId);
        if (found == null || !found.claim(this)) {
            off = true;
            return frame;
        }
        buffer = found;
        return buffer.append(this, frame);
    }

    /** True while the stream feeds a buffer (a caller could resume it). */
    boolean buffering() {
        return buffer != null;
    }

    boolean hasFollowers() {
        return buffer != null && buffer.hasFollowers();
    }

    /** The stream ended: the task's buffer loses its source (followers end; a later resume subscribes again). */
    void end() {
        if (buffer != null) {
            buffer.release(this);
        }
    }
}
