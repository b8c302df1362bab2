package dev.switchboard.app;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests a shutdown waits for, over all listeners: gateway calls and API writes (not GETs: a web chat's event
 * stream never ends on its own, and a read is cheap to repeat). Once {@link #drain} starts, new requests other than
 * the probes and the metrics are answered 503 with {@code Connection: close}; the tracked ones get the grace period
 * to finish.
 *
 * <p>No book of its own: each listener's {@link ConnectionGuard} already keeps every connection's latest request, and
 * marks the ones a drain waits for ({@link #track}); a drain asks the guards. So a request costs a flag, not an entry
 * in a set shared by every event loop.
 */
final class InFlight {

    private static final Logger LOG = LoggerFactory.getLogger(InFlight.class);
    private static final Set<String> OPS_PATHS = Set.of("/healthz", "/readyz", "/metrics");

    private final List<ConnectionGuard> guards = new CopyOnWriteArrayList<>();
    private volatile boolean draining;

    /** A listener's guard, whose requests a drain waits for until {@link #unwatch}. */
    void watch(ConnectionGuard guard) {
        guards.add(guard);
    }

    void unwatch(ConnectionGuard guard) {
        guards.remove(guard);
    }

    /** False, after answering 503, for a request that arrives while draining. */
    boolean admit(HttpServerRequest request) {
        if (!draining) {
            return true;
        }
        String path = request.path(); // null for a request line Vert.x could not split (Set.of refuses null)
        if (path != null && OPS_PATHS.contains(path)) {
            return true;
        }
        request.response().setStatusCode(503).putHeader("Connection", "close").putHeader("Retry-After", "1")
                .putHeader("Content-Type", "application/json")
                .end("{\"error\":\"shutting down: send the request to another replica or retry\"}");
        return false;
    }

    /** Tracks a request the gateway took, or one the router takes that is not a GET: its connection's books say so. */
    static void track(ConnectionGuard.Tracked connection, HttpServerRequest request, boolean gateway) {
        if (gateway || (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD)) {
            ConnectionGuard.awaitOnDrain(connection);
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
        List<Future<Integer>> counts = guards.stream().map(ConnectionGuard::awaited).toList();
        Future.all(counts).onComplete(ar -> {
            int pending = 0;
            for (Future<Integer> c : counts) {
                pending += c.succeeded() ? c.result() : 0;
            }
            if (pending == 0) {
                done.tryComplete();
            } else if (System.nanoTime() - deadline >= 0) {
                LOG.warn("shutdown: {} request(s) still in flight after the grace period (Server.spec.http.shutdownGracePeriod);"
                        + " closing their connections", pending);
                done.tryComplete();
            } else {
                vertx.setTimer(50, t -> check(vertx, deadline, done));
            }
        });
    }
}
