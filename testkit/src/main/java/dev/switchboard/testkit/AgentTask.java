package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One task held by a test agent: its status, artifacts and history, and the streams listening to it.
 * Requests of one agent may arrive on several event loops, so every change is made under the task's
 * lock and listeners hear events in the order they happened.
 */
final class AgentTask {

    private final String id;
    private final String contextId;
    private final long sequence;
    private final String artifactId = "artifact-" + UUID.randomUUID();
    private final List<Message> history = new ArrayList<>();
    private final List<Artifact> artifacts = new ArrayList<>();
    private final List<Consumer<StreamEvent>> listeners = new CopyOnWriteArrayList<>();
    private TaskStatus status;
    /** Whether the call that last ran this task activated kagent's hitl/v1 extension. */
    private boolean hitlActivated;
    /** The hitl/v1 request the task waits on an answer to; null when it waits on none. */
    private ObjectNode pendingHitl;

    AgentTask(String id, String contextId, long sequence) {
        this.id = id;
        this.contextId = contextId;
        this.sequence = sequence;
        this.status = new TaskStatus(TaskState.SUBMITTED, null, now());
    }

    String id() {
        return id;
    }

    String contextId() {
        return contextId;
    }

    /** Creation order, the tie-breaker when two status timestamps are equal. */
    long sequence() {
        return sequence;
    }

    synchronized TaskStatus status() {
        return status;
    }

    synchronized void addUserMessage(Message message) {
        history.add(message.withIds(contextId, id));
    }

    /** Moves to {@code state} and tells the listeners; a terminal task never changes again. */
    synchronized void setStatus(TaskState state, String text, ObjectNode metadata) {
        setStatus(state, text == null ? null : List.of(Part.text(text)), metadata);
    }

    /** Moves to {@code state}; {@code parts} (null for none) become the agent's status message. */
    synchronized void setStatus(TaskState state, List<Part> parts, ObjectNode metadata) {
        setStatus(state, parts, metadata, null);
    }

    /** Remembers whether the call now running the task activated the hitl/v1 extension (see {@link #pauseForHitl}). */
    synchronized void hitlActivated(boolean activated) {
        hitlActivated = activated;
    }

    /**
     * Pauses in input-required with a kagent hitl/v1 request. When the running call activated the extension, the
     * status message carries the request ({@code extensions} and {@code metadata[URI]}) and the task waits on a
     * structured answer; otherwise it carries kagent's readable text only and waits on nothing in particular.
     */
    synchronized void pauseForHitl(ObjectNode request) {
        if (status.state().isTerminal()) {
            return;
        }
        if (hitlActivated) {
            ObjectNode metadata = request.objectNode();
            metadata.set(KagentHitl.URI, request.deepCopy());
            pendingHitl = request.deepCopy();
            setStatus(TaskState.INPUT_REQUIRED, List.of(Part.text(KagentHitl.displayText(request))), metadata,
                    List.of(KagentHitl.URI));
        } else {
            pendingHitl = null;
            setStatus(TaskState.INPUT_REQUIRED, List.of(Part.text(KagentHitl.DEFAULT_HINT)), null, null);
        }
    }

    /** The hitl/v1 request the task waits on, which the caller now answers; null when none. */
    synchronized ObjectNode takePendingHitl() {
        ObjectNode pending = pendingHitl;
        pendingHitl = null;
        return pending;
    }

    private void setStatus(TaskState state, List<Part> parts, ObjectNode metadata, List<String> extensions) {
        if (status.state().isTerminal()) {
            return;
        }
        Message message = null;
        if (parts != null) {
            message = new Message("status-" + UUID.randomUUID(), Role.AGENT, parts, contextId, id, metadata, extensions, null);
            history.add(message);
        }
        status = new TaskStatus(state, message, now());
        boolean closing = state.isTerminal() || state.isInterrupted();
        publish(new TaskStatusUpdateEvent(id, contextId, status, closing, null));
    }

    /** True when a user message of the task's history has this messageId. */
    synchronized boolean holds(String messageId) {
        return history.stream().anyMatch(m -> m.role() == Role.USER && messageId.equals(m.messageId()));
    }

    /** Cancels an active task; false when it had already ended. */
    synchronized boolean cancel() {
        if (status.state().isTerminal()) {
            return false;
        }
        setStatus(TaskState.CANCELED, (String) null, null);
        return true;
    }

    /** Adds a chunk of the task's one artifact: appended to it, or replacing it. */
    synchronized void addChunk(String text, boolean append, boolean lastChunk) {
        if (status.state().isTerminal()) {
            return;
        }
        Artifact chunk = new Artifact(artifactId, "answer", null, List.of(Part.text(text)), null, null);
        if (append && !artifacts.isEmpty()) {
            Artifact earlier = artifacts.remove(artifacts.size() - 1);
            List<Part> parts = new ArrayList<>(earlier.parts());
            parts.addAll(chunk.parts());
            artifacts.add(new Artifact(artifactId, earlier.name(), null, parts, null, null));
        } else {
            artifacts.clear();
            artifacts.add(chunk);
        }
        publish(new TaskArtifactUpdateEvent(id, contextId, chunk, append, lastChunk, null));
    }

    /**
     * The task as the wire shows it.
     *
     * @param historyLength null for all history, 0 for none (omitted), N for the newest N messages
     * @param includeArtifacts false to omit the artifacts member (ListTasks)
     */
    synchronized Task snapshot(Integer historyLength, boolean includeArtifacts) {
        List<Message> shownHistory;
        if (historyLength == null) {
            shownHistory = history;
        } else if (historyLength <= 0) {
            shownHistory = null;
        } else {
            shownHistory = history.subList(Math.max(0, history.size() - historyLength), history.size());
        }
        return new Task(id, contextId, status, includeArtifacts ? artifacts : null, shownHistory, null);
    }

    /**
     * Hands {@code listener} the task as it is now, then every later event. Both happen under the
     * task's lock, so no event can overtake the snapshot.
     */
    synchronized Task follow(Integer historyLength, Consumer<StreamEvent> listener) {
        Task now = snapshot(historyLength, true);
        listeners.add(listener);
        listener.accept(now);
        return now;
    }

    /** Hands {@code listener} every later event. */
    void listen(Consumer<StreamEvent> listener) {
        listeners.add(listener);
    }

    void unsubscribe(Consumer<StreamEvent> listener) {
        listeners.remove(listener);
    }

    private void publish(StreamEvent event) {
        for (Consumer<StreamEvent> listener : listeners) {
            listener.accept(event);
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
