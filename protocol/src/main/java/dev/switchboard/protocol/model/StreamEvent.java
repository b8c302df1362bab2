package dev.switchboard.protocol.model;

/** One event of a stream: 1.0 {@code StreamResponse}, 0.3 a bare object told apart by {@code kind}. */
public sealed interface StreamEvent permits Task, Message, TaskStatusUpdateEvent, TaskArtifactUpdateEvent {}
