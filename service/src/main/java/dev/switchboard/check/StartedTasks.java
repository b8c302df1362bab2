package dev.switchboard.check;

import static dev.switchboard.check.Events.blank;
import static dev.switchboard.check.Events.contextId;
import static dev.switchboard.check.Events.isSettled;
import static dev.switchboard.check.Events.stateOf;
import static dev.switchboard.check.Events.taskId;

import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the checker started on the agent: its tasks with the last state seen, their contexts, and what it cancelled. */
final class StartedTasks {

    /** The tasks the checker started, with the last state it saw (null: none seen yet). */
    private final Map<String, TaskState> started = new LinkedHashMap<>();
    private final List<String> cancelled = new ArrayList<>();
    /** The contexts the agent made for the checker's turns. */
    private final Set<String> contexts = new LinkedHashSet<>();

    /** Keeps the last state seen of each task the checker started. */
    void observe(StreamEvent e) {
        String contextId = contextId(e);
        if (!blank(contextId) && !(e instanceof Message)) {
            contexts.add(contextId);
        }
        String taskId = taskId(e);
        TaskState state = stateOf(e);
        if (blank(taskId)) {
            return;
        }
        if (e instanceof Task || e instanceof TaskStatusUpdateEvent || !started.containsKey(taskId)) {
            started.merge(taskId, state == null ? TaskState.UNSPECIFIED : state, (a, b) -> state == null ? a : b);
        }
    }

    /** A task the agent started in one of the checker's contexts on its own is the checker's doing too. */
    void adopt(Task task) {
        started.putIfAbsent(task.id(), task.state());
    }

    boolean started(String taskId) {
        return started.containsKey(taskId);
    }

    boolean settled(String taskId) {
        TaskState s = started.get(taskId);
        return s != null && isSettled(s);
    }

    /** The tasks started, in the order first seen, with the last state seen. */
    List<Map.Entry<String, TaskState>> tasks() {
        return new ArrayList<>(started.entrySet());
    }

    Set<String> contexts() {
        return contexts;
    }

    void cancelled(String taskId) {
        cancelled.add(taskId);
    }

    boolean wasCancelled(String taskId) {
        return cancelled.contains(taskId);
    }

    List<String> cancelled() {
        return List.copyOf(cancelled);
    }
}
