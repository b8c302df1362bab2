package dev.switchboard.bridge.store;

import dev.switchboard.bridge.engine.Platform;
import java.time.Instant;

/** A chat thread: one conversation with the agent its channel is bound to. */
public record ChatThread(
        String threadId, Platform platform, String channel, String binding, String title, Instant createdAt,
        Instant lastActivity) {}
