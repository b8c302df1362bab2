package dev.switchboard.bridge;

import java.time.Duration;

/**
 * {@code Server.spec.bridge}: bounds on what one chat thread may hold.
 *
 * @param maxQueuedTurns turns of one thread waiting behind its running task; one more is refused with 429 (default 20)
 * @param maxAnswerChars an agent's answer text is cut at this many characters, with a note saying so (default 100,000)
 * @param sessionIdleTimeout a session with nothing in flight is dropped from memory after this; the store keeps
 *     it (default 10 min)
 * @param leaseDuration several replicas on PostgreSQL: how long a replica's lease on a chat session lasts unless
 *     renewed (every third of it); a replica that dies loses its sessions to another after this (default 15 s)
 */
public record BridgeLimits(int maxQueuedTurns, int maxAnswerChars, Duration sessionIdleTimeout, Duration leaseDuration) {

    public static final BridgeLimits DEFAULTS = new BridgeLimits(20, 100_000, Duration.ofMinutes(10),
            Duration.ofSeconds(15));

    public BridgeLimits(int maxQueuedTurns, int maxAnswerChars, Duration sessionIdleTimeout) {
        this(maxQueuedTurns, maxAnswerChars, sessionIdleTimeout, DEFAULTS_LEASE);
    }

    private static final Duration DEFAULTS_LEASE = Duration.ofSeconds(15);
}
