package dev.switchboard.gateway;

import java.time.Duration;

/**
 * Gateway-wide settings (per-agent ones are in {@code AgentLimits}).
 *
 * @param maxRequestBytes largest request body accepted; default 10 MiB
 * @param keepaliveInterval a relayed stream quiet this long gets a {@code : keepalive} comment; default 15 s
 * @param connectTimeout TCP connect limit to an agent, within the call's own timeout; default 10 s
 * @param maxRequestBytesInFlight request bytes of all callers buffered at once; a body that would go over it is
 *     refused as busy (503, Retry-After); default 256 MiB
 */
public record GatewaySettings(long maxRequestBytes, Duration keepaliveInterval, Duration connectTimeout,
        long maxRequestBytesInFlight) {

    public static final GatewaySettings DEFAULTS =
            new GatewaySettings(10L * 1024 * 1024, Duration.ofSeconds(15), Duration.ofSeconds(10), 256L * 1024 * 1024);
}
