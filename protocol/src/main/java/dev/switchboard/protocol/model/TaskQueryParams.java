package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Params of GetTask, CancelTask and SubscribeToTask: a task id plus optional history length and metadata. */
public record TaskQueryParams(String id, Integer historyLength, ObjectNode metadata, String tenant) {

    public static TaskQueryParams of(String id) {
        return new TaskQueryParams(id, null, null, null);
    }
}
