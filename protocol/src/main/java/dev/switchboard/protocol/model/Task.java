package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A unit of work on the agent. {@code artifacts} and {@code history} are null when the wire
 * omitted them (ListTasks without includeArtifacts, historyLength 0), empty when sent empty.
 */
public record Task(
        String id,
        String contextId,
        TaskStatus status,
        List<Artifact> artifacts,
        List<Message> history,
        ObjectNode metadata)
        implements StreamEvent, SendMessageResult {

    public Task {
        status = status == null ? TaskStatus.of(TaskState.UNSPECIFIED) : status;
        artifacts = artifacts == null ? null : List.copyOf(artifacts);
        history = history == null ? null : List.copyOf(history);
    }

    public TaskState state() {
        return status.state();
    }
}
