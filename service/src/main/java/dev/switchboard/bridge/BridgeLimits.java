package dev.switchboard.bridge;

import java.time.Duration;

/**
 * {@code Server.spec.bridge}: bounds on what one chat thread may hold.
 *
 * @param maxQueuedTurns turns of one thread waiting behind its running task; one more is refused with 429 (default 20)
 * @param maxAnswerChars an agent's answer text is cut at this many characters, with a note saying so (default 100,000)
 * @param sessionIdleTimeout a session with nothing in flight is dropped from memory after this; the store keeps
 *     it (default 10 min)
 */
public record BridgeLimits(int maxQueuedTurns, int maxAnswerChars, Duration sessionIdleTimeout) {

    public static final BridgeLimits DEFAULTS = new BridgeLimits(20, 100_000, Duration.ofMinutes(10));
}
