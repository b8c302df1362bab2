package dev.switchboard.bridge.store;

import java.time.Instant;

/** A chat thread: one conversation with the agent its channel is bound to. */
public record ChatThread(
        String threadId, String platform, String channel, String binding, String title, Instant createdAt,
        Instant lastActivity) {}
