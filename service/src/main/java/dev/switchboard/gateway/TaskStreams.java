package dev.switchboard.gateway;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-task stream buffers of this replica (G13), by agent and task id, at most {@code streamBuffer.tasks} of
 * them: a new task's buffer pushes out the least recently written one without a live source, and a buffer idle for
 * {@code streamBuffer.age} is forgotten when found or when room is needed.
 */
final class TaskStreams {

    private final StreamBufferSettings limits;
    private final ConcurrentHashMap<String, TaskBuffer> buffers = new ConcurrentHashMap<>();

    TaskStreams(StreamBufferSettings limits) {
        this.limits = limits;
    }

    boolean enabled() {
        return limits.enabled();
    }

    StreamBufferSettings limits() {
        return limits;
    }

    /** The task's buffer, or null when there is none (never buffered here, forgotten, or another replica's). */
    TaskBuffer find(String agentId, String taskId) {
        String key = key(agentId, taskId);
        TaskBuffer b = buffers.get(key);
        if (b != null && b.idleSince(System.nanoTime() - limits.age().toNanos())) {
            buffers.remove(key, b);
            return null;
        }
        return b;
    }

    /**
     * The task's buffer, made when missing (owned by {@code callerId}); null when the limit of tasks is reached and every
     * buffer is live, or when another caller's stream made it.
     */
    TaskBuffer open(String agentId, String taskId, String callerId) {
        String key = key(agentId, taskId);
        TaskBuffer b = find(agentId, taskId);
        if (b != null) {
            return b.ownedBy(callerId) ? b : null;
        }
        if (buffers.size() >= limits.tasks() && !makeRoom()) {
            return null;
        }
        TaskBuffer made = buffers.computeIfAbsent(key, k -> new TaskBuffer(taskId, callerId, limits));
        return made.ownedBy(callerId) ? made : null;
    }

    int size() {
        return buffers.size();
    }

    /** Forgets the idle buffers, else the least recently written one without a live source; false if all are live. */
    private synchronized boolean makeRoom() {
        long expired = System.nanoTime() - limits.age().toNanos();
        buffers.entrySet().removeIf(e -> e.getValue().idleSince(expired));
        if (buffers.size() < limits.tasks()) {
            return true;
        }
        Map.Entry<String, TaskBuffer> oldest = null;
        for (Map.Entry<String, TaskBuffer> e : buffers.entrySet()) {
            if (!e.getValue().live() && (oldest == null
                    || e.getValue().touchedNanos() < oldest.getValue().touchedNanos())) {
                oldest = e;
            }
        }
        if (oldest == null) {
            return false;
        }
        buffers.remove(oldest.getKey(), oldest.getValue());
        return true;
    }

    private static String key(String agentId, String taskId) {
        return agentId + '\n' + taskId;
    }
}
