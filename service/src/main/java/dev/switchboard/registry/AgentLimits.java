package dev.switchboard.registry;

/**
 * Per-agent limits of the gateway, each with the default PRODUCT.md gives it.
 *
 * @param maxConcurrency calls in flight (sync and streams together); default 100
 * @param defaultTimeoutSeconds when the caller gives no {@code params.configuration.timeout}; default 300
 * @param maxTimeoutSeconds cap on any timeout; default 3600
 * @param maxResponseBytes largest non-streaming reply relayed, and largest single SSE event; default 10 MiB
 * @param streamIdleTimeoutSeconds a stream with no agent event for this long is closed; default 300
 */
public record AgentLimits(
        int maxConcurrency,
        long defaultTimeoutSeconds,
        long maxTimeoutSeconds,
        long maxResponseBytes,
        long streamIdleTimeoutSeconds) {

    public static final AgentLimits DEFAULTS = new AgentLimits(100, 300, 3600, 10L * 1024 * 1024, 300);
}
