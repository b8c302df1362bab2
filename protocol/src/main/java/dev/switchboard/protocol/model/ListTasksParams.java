package dev.switchboard.protocol.model;

import java.time.Instant;

/** Params of ListTasks (1.0 only). */
public record ListTasksParams(
        String contextId,
        TaskState status,
        Integer pageSize,
        String pageToken,
        Integer historyLength,
        Instant statusTimestampAfter,
        Boolean includeArtifacts,
        String tenant) {}
