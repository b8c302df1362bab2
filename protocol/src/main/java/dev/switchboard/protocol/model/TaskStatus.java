package dev.switchboard.protocol.model;

import java.time.Instant;

/** A task's state, with an optional message (e.g. the agent's question) and timestamp. */
public record TaskStatus(TaskState state, Message message, Instant timestamp) {

    public TaskStatus {
        state = state == null ? TaskState.UNSPECIFIED : state;
    }

    public static TaskStatus of(TaskState state) {
        return new TaskStatus(state, null, null);
    }
}
