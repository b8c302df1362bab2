package dev.switchboard.bridge.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.model.AgentCapabilities;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentExtension;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What an agent says, as the protocol model reads it: cards, tasks, events, failures. */
final class Wire {

    private Wire() {}

    static final String ENDPOINT = "http://agent.test/a2a";

    // ================= cards =================

    static AgentCard card10() {
        return card(List.of(new AgentInterface(ENDPOINT, "JSONRPC", "1.0", null)), AgentCapabilities.streamingOnly());
    }

    static AgentCard card03() {
        return card(List.of(new AgentInterface(ENDPOINT, "JSONRPC", "0.3", null)), AgentCapabilities.streamingOnly());
    }

    static AgentCard card(List<AgentInterface> interfaces, AgentCapabilities capabilities) {
        return new AgentCard("agent", "test agent", "1", interfaces, capabilities, null, null, null, null, null, null);
    }

    static AgentCapabilities requiring(String extensionUri) {
        return new AgentCapabilities(true, false, false, false,
                List.of(new AgentExtension(extensionUri, "x", true, null)));
    }

    // ================= tasks and events =================

    static Task task(String id, String ctx, TaskState state) {
        return new Task(id, ctx, TaskStatus.of(state), null, null, null);
    }

    /** A full Task whose artifact a1 holds {@code answer}. */
    static Task task(String id, String ctx, TaskState state, String answer) {
        return new Task(id, ctx, TaskStatus.of(state), List.of(Artifact.text("a1", answer)), null, null);
    }

    static Task task(String id, String ctx, TaskStatus status) {
        return new Task(id, ctx, status, null, null, null);
    }

    static Task withHistory(Task t, String... messageIds) {
        List<Message> history = new ArrayList<>();
        for (String m : messageIds) {
            history.add(Message.userText(m, "…"));
        }
        return new Task(t.id(), t.contextId(), t.status(), t.artifacts(), history, t.metadata());
    }

    static TaskStatusUpdateEvent update(String id, String ctx, TaskState state) {
        return new TaskStatusUpdateEvent(id, ctx, TaskStatus.of(state), false, null);
    }

    static TaskStatusUpdateEvent update(String id, String ctx, TaskStatus status) {
        return new TaskStatusUpdateEvent(id, ctx, status, false, null);
    }

    static TaskArtifactUpdateEvent artifact(String id, String ctx, String artifactId, String text, boolean append) {
        return new TaskArtifactUpdateEvent(id, ctx, Artifact.text(artifactId, text), append, false, null);
    }

    static TaskArtifactUpdateEvent artifact(String id, String ctx, Artifact artifact, boolean append, boolean lastChunk) {
        return new TaskArtifactUpdateEvent(id, ctx, artifact, append, lastChunk, null);
    }

    static Message agentSays(String messageId, String... texts) {
        return agentParts(messageId, Arrays.stream(texts).map(t -> (Part) Part.text(t)).toList());
    }

    static Message agentParts(String messageId, List<Part> parts) {
        return new Message(messageId, Role.AGENT, parts, null, null, null, null, null);
    }

    /** An input-required status: the agent's question. */
    static TaskStatus asking(String questionId, Instant timestamp, String... texts) {
        return new TaskStatus(TaskState.INPUT_REQUIRED, agentSays(questionId, texts), timestamp);
    }

    static TaskStatus status(TaskState state, Message message) {
        return new TaskStatus(state, message, null);
    }

    static Part.Data data(String json) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("value", json);
        return new Part.Data(n, "application/json", null, null);
    }

    static Part.Url file(String url) {
        return new Part.Url(url, "text/plain", "notes.txt", null);
    }

    static ListTasksResult page(String nextPageToken, Task... tasks) {
        return new ListTasksResult(List.of(tasks), nextPageToken, 50, tasks.length);
    }

    // ================= failures =================

    static CallFailure http(int status) {
        return new CallFailure.HttpStatus(status, null);
    }

    static CallFailure http(int status, Duration retryAfter) {
        return new CallFailure.HttpStatus(status, retryAfter);
    }

    static CallFailure rpc(int code) {
        return new CallFailure.RpcError(code, "agent detail: stack trace at Foo.java:12 (secret-token-xyz)", null);
    }

    static CallFailure rpc(int code, Duration retryAfter) {
        return new CallFailure.RpcError(code, "agent detail (secret-token-xyz)", retryAfter);
    }

    static CallFailure transport(CallFailure.TransportKind kind) {
        return new CallFailure.Transport(kind, "detail");
    }

    static CallFailure dropped() {
        return transport(CallFailure.TransportKind.LOST);
    }
}
