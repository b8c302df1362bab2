package dev.switchboard.app;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests a shutdown waits for, over all listeners: gateway calls and API writes (not GETs: a web chat's event
 * stream never ends on its own, and a read is cheap to repeat). Once {@link #drain} starts, new requests other than
 * the probes and the metrics are answered 503 with {@code Connection: close}; the tracked ones get the grace period
 * to finish.
 */
final class InFlight {

    private static final Logger LOG = LoggerFactory.getLogger(InFlight.class);
    private static final Set<String> OPS_PATHS = Set.of("/healthz", "/readyz", "/metrics");

    private final Set<HttpServerRequest> tracked = ConcurrentHashMap.newKeySet();
    private volatile boolean draining;
    /** The set is pruned of finished requests when it grows past this: amortised, no handler per request. */
    private volatile int pruneAt = 1024;

    /** False, after answering 503, for a request that arrives while draining. */
    boolean admit(HttpServerRequest request) {
        String path = request.path(); // null for a request line Vert.x could not split (Set.of refuses null)
        if (!draining || (path != null && OPS_PATHS.contains(path))) {
            return true;
        }
        request.response().setStatusCode(503).putHeader("Connection", "close").putHeader("Retry-After", "1")
                .putHeader("Content-Type", "application/json")
                .end("{\"error\":\"shutting down: send the request to another replica or retry\"}");
        return false;
    }

    /** Tracks a request the gateway took, or one the router takes that is not a GET. */
    void track(HttpServerRequest request, boolean gateway) {
        if (!gateway && (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD)) {
            return;
        }
        tracked.add(request);
        if (tracked.size() > pruneAt) {
            tracked.removeIf(InFlight::finished);
            pruneAt = Math.max(1024, tracked.size() * 2);
        }
    }

    /** Refuses new requests from now on; completes when the tracked ones have finished or the grace has passed. */
    Future<Void> drain(Vertx vertx, Duration grace) {
        draining = true;
        Promise<Void> done = Promise.promise();
        long deadline = System.nanoTime() + grace.toNanos();
        check(vertx, deadline, done);
        return done.future();
    }

    private void check(Vertx vertx, long deadline, Promise<Void> done) {
        tracked.removeIf(InFlight::finished);
        if (tracked.isEmpty()) {
            done.tryComplete();
        } else if (System.nanoTime() - deadline >= 0) {
            LOG.warn("shutdown: {} request(s) still in flight after the grace period (Server.spec.http.shutdownGracePeriod);"
                    + " closing their connections", tracked.size());
            done.tryComplete();
        } else {
            vertx.setTimer(50, t -> check(vertx, deadline, done));
        }
    }

    private static boolean finished(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        return response.ended() || response.closed();
    }
}
