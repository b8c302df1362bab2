package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A change of a task's status. {@code isFinal} exists only on the 0.3 wire (1.0 closes the stream
 * instead); when writing 0.3 it is taken as given, when reading 1.0 it is false. Translating 1.0 to
 * 0.3 sets it by {@code Translator.v03Final}.
 */
public record TaskStatusUpdateEvent(
        String taskId, String contextId, TaskStatus status, boolean isFinal, ObjectNode metadata)
        implements StreamEvent {

    public TaskStatusUpdateEvent {
        status = status == null ? TaskStatus.of(TaskState.UNSPECIFIED) : status;
    }
}
