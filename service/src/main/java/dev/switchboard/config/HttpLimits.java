package dev.switchboard.config;

import java.time.Duration;

/**
 * Bounds on every HTTP connection the server accepts ({@code Server.spec.http}).
 *
 * @param idleTimeout a connection with no request in progress for this long is closed (default 60 s); requests
 *     in progress (a long agent call, an SSE stream) are not cut by it
 * @param bodyReadTimeout a request whose body has not fully arrived this long after its headers is answered 408
 *     and its connection closed (default 30 s)
 * @param headerReadTimeout a new connection must complete its first request's headers within this (default 10 s)
 * @param maxConnections connections open at once; more are closed at once (default 10,000)
 * @param shutdownGracePeriod at SIGTERM, how long gateway calls and API writes in flight get to finish before the
 *     connections are closed (default 20 s: below Kubernetes' 30 s terminationGracePeriodSeconds, so the process
 *     stops on its own before it is killed)
 */
public record HttpLimits(Duration idleTimeout, Duration bodyReadTimeout, Duration headerReadTimeout, int maxConnections,
        Duration shutdownGracePeriod) {

    public static final Duration DEFAULT_SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(20);

    public static final HttpLimits DEFAULTS = new HttpLimits(Duration.ofSeconds(60), Duration.ofSeconds(30),
            Duration.ofSeconds(10), 10_000, DEFAULT_SHUTDOWN_GRACE_PERIOD);

    /** With the default shutdown grace period. */
    public HttpLimits(Duration idleTimeout, Duration bodyReadTimeout, Duration headerReadTimeout, int maxConnections) {
        this(idleTimeout, bodyReadTimeout, headerReadTimeout, maxConnections, DEFAULT_SHUTDOWN_GRACE_PERIOD);
    }
}
