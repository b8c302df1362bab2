package dev.switchboard.gateway;

/**
 * G3: the caller's {@code params.configuration.timeout} if given, else the agent's default, never
 * above the agent's cap. Over-cap requests are lowered silently, as KubeMQ does.
 */
public final class TimeoutChain {

    private TimeoutChain() {}

    public static long millis(Double requestedSeconds, long defaultSeconds, long maxSeconds) {
        double seconds = requestedSeconds != null ? requestedSeconds : defaultSeconds;
        double capped = Math.min(seconds, maxSeconds);
        return Math.max(1L, Math.round(capped * 1000.0));
    }
}
