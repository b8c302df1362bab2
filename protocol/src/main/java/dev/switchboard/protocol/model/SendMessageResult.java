package dev.switchboard.protocol.model;

/** The result of SendMessage: a task or a direct message (1.0 wraps it, 0.3 tags it with kind). */
public sealed interface SendMessageResult permits Task, Message {}
