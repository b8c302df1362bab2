package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An artifact chunk: {@code append} adds its parts to the artifact of the same id, else it replaces. */
public record TaskArtifactUpdateEvent(
        String taskId, String contextId, Artifact artifact, boolean append, boolean lastChunk, ObjectNode metadata)
        implements StreamEvent {}
