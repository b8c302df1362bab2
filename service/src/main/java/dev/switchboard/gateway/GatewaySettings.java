package dev.switchboard.gateway;

import dev.switchboard.policy.CallerLimitSettings;
import dev.switchboard.push.PushSettings;
import java.time.Duration;

/**
 * Gateway-wide settings (per-agent ones are in {@code AgentLimits}).
 *
 * @param maxRequestBytes largest request body accepted; default 10 MiB
 * @param keepaliveInterval a relayed stream quiet this long gets a {@code : keepalive} comment; default 15 s
 * @param connectTimeout TCP connect limit to an agent, within the call's own timeout; default 10 s
 * @param maxRequestBytesInFlight request bytes of all callers buffered at once, the gateway's bodies and every other
 *     route's (Slack's, the registry's, the triggers', the chat API's: at most half of it, as those are read before
 *     their sender is known); a body that would go over it is refused as busy (503, Retry-After); default 256 MiB, or a quarter of the JVM's maximum heap when that is less
 * @param callerLimits rate and concurrency limits per caller; off by default
 * @param streamBuffer what is kept of each task's relayed stream for a caller that resumes it (G13)
 * @param push how push notifications are delivered to callers (G14)
 */
public record GatewaySettings(long maxRequestBytes, Duration keepaliveInterval, Duration connectTimeout,
        long maxRequestBytesInFlight, CallerLimitSettings callerLimits, StreamBufferSettings streamBuffer,
        PushSettings push) {

    public GatewaySettings {
        callerLimits = callerLimits == null ? CallerLimitSettings.OFF : callerLimits;
        streamBuffer = streamBuffer == null ? StreamBufferSettings.DEFAULTS : streamBuffer;
        push = push == null ? PushSettings.DEFAULTS : push;
    }

    public GatewaySettings(long maxRequestBytes, Duration keepaliveInterval, Duration connectTimeout,
            long maxRequestBytesInFlight, CallerLimitSettings callerLimits, StreamBufferSettings streamBuffer) {
        this(maxRequestBytes, keepaliveInterval, connectTimeout, maxRequestBytesInFlight, callerLimits, streamBuffer, null);
    }

    public GatewaySettings(long maxRequestBytes, Duration keepaliveInterval, Duration connectTimeout,
            long maxRequestBytesInFlight, CallerLimitSettings callerLimits) {
        this(maxRequestBytes, keepaliveInterval, connectTimeout, maxRequestBytesInFlight, callerLimits, null);
    }

    public GatewaySettings withStreamBuffer(StreamBufferSettings buffer) {
        return new GatewaySettings(maxRequestBytes, keepaliveInterval, connectTimeout, maxRequestBytesInFlight,
                callerLimits, buffer, push);
    }

    public GatewaySettings(long maxRequestBytes, Duration keepaliveInterval, Duration connectTimeout,
            long maxRequestBytesInFlight) {
        this(maxRequestBytes, keepaliveInterval, connectTimeout, maxRequestBytesInFlight, CallerLimitSettings.OFF);
    }

    public GatewaySettings withCallerLimits(CallerLimitSettings limits) {
        return new GatewaySettings(maxRequestBytes, keepaliveInterval, connectTimeout, maxRequestBytesInFlight, limits,
                streamBuffer, push);
    }

    private static final long DEFAULT_MAX_REQUEST_BYTES = 10L * 1024 * 1024;

    public static final GatewaySettings DEFAULTS = new GatewaySettings(DEFAULT_MAX_REQUEST_BYTES, Duration.ofSeconds(15),
            Duration.ofSeconds(10), defaultInFlight(Runtime.getRuntime().maxMemory()));

    /**
     * 256 MiB, or a quarter of {@code maxHeap} when that is less: a budget the heap cannot hold bounds nothing (the
     * bodies' buffers, their copies while they grow, and everything else must fit beside it). Never below the default
     * {@code maxRequestBytes}, so that one largest call still fits.
     */
    static long defaultInFlight(long maxHeap) {
        long quarter = maxHeap == Long.MAX_VALUE ? Long.MAX_VALUE : maxHeap / 4;
        return Math.max(DEFAULT_MAX_REQUEST_BYTES, Math.min(256L * 1024 * 1024, quarter));
    }
}
