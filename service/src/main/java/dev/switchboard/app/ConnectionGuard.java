package dev.switchboard.app;

import dev.switchboard.config.HttpLimits;
import dev.switchboard.http.RequestBudget;
import dev.switchboard.http.WriteQueues;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds every connection of one listener in time, and all listeners together in number (O7): a
 * connection must finish its first request's headers within {@code headerReadTimeout}, a request's body
 * must arrive within {@code bodyReadTimeout}, and a connection with no request in progress is closed
 * after {@code idleTimeout}. A request in progress — a long agent call, an SSE stream — is never cut
 * for idleness: Vert.x's own idle timeout cannot tell the two apart, so this keeps its own books.
 *
 * <p>Confined to the listener's event loop: the connection handler, the request handler and the sweep
 * all run there, so the map needs no lock. Requests are only looked at by the sweep (once a second),
 * which keeps the per-request cost to one map lookup and sets no handler the features might replace.
 *
 * <p>The same books tell a shutdown's drain which requests it waits for ({@link #awaited}): Vert.x hands a
 * connection's requests to the handler one at a time (a pipelined request waits for the response before it), so a
 * connection's latest request is the only one of it that can be in progress.
 */
final class ConnectionGuard {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);
    static final long SWEEP_MILLIS = 500;

    private final Vertx vertx;
    private final Context context;
    private final HttpLimits limits;
    private final AtomicInteger open;
    private final Map<HttpConnection, Tracked> tracked = new HashMap<>();
    private long timer = -1;

    /**
     * One connection's state: when it opened, its latest request, since when it has been idle, and whether a drain
     * waits for that request (see {@link InFlight}).
     */
    static final class Tracked {
        final long openedAt;
        HttpServerRequest request;
        long requestAt;
        long idleSince = -1;
        boolean awaited;
        /** The latest request's share of the body budget, when the router took a body ({@link RequestBodies}). */
        RequestBudget.Reservation body;

        Tracked(long openedAt) {
            this.openedAt = openedAt;
        }

        /** Gives the latest request's body bytes back, if it still holds any (a reservation gives back only once). */
        void releaseBody() {
            if (body != null) {
                body.release();
                body = null;
            }
        }
    }

    /** @param context the listener's, where every method but {@link #awaited} must be called */
    ConnectionGuard(Vertx vertx, Context context, HttpLimits limits, AtomicInteger open) {
        this.vertx = vertx;
        this.context = context;
        this.limits = limits;
        this.open = open;
    }

    void start() {
        timer = vertx.setPeriodic(SWEEP_MILLIS, id -> sweep(System.nanoTime()));
    }

    void stop() {
        if (timer != -1) {
            vertx.cancelTimer(timer);
        }
    }

    /** A new connection: counted, and closed at once when the cap is reached. */
    void connected(HttpConnection connection) {
        // before anything is written to it: a relayed stream holds its connection for long, idle
        WriteQueues.small(connection);
        int now = open.incrementAndGet();
        Tracked t = new Tracked(System.nanoTime());
        tracked.put(connection, t);
        connection.closeHandler(v -> {
            tracked.remove(connection);
            open.decrementAndGet();
            t.releaseBody(); // also when the sweep took it off the books first
        });
        if (now > limits.maxConnections()) {
            LOG.warn("connection refused: {} connections are open (Server.spec.http.maxConnections)", limits.maxConnections());
            connection.close();
        }
    }

    /**
     * A request's headers have arrived. Returns its connection's books (null when the connection is not tracked, one
     * the sweep is closing), for {@link #awaitOnDrain}.
     */
    Tracked request(HttpServerRequest request) {
        Tracked t = tracked.get(request.connection());
        if (t != null) {
            // the one before has ended (Vert.x hands a connection's requests over one at a time): whatever it held is free
            t.releaseBody();
            t.request = request;
            t.requestAt = System.nanoTime();
            t.idleSince = -1;
            t.awaited = false;
        }
        return t;
    }

    /**
     * The connection's latest request holds {@code body} of the body budget: given back at the latest when the
     * request's response is done (the sweep), the connection's next request, or its close, whichever comes first.
     */
    static void hold(Tracked t, RequestBudget.Reservation body) {
        if (t != null) {
            t.body = body;
        }
    }

    /** Marks the connection's latest request as one a shutdown's drain waits for. */
    static void awaitOnDrain(Tracked t) {
        if (t != null) {
            t.awaited = true;
        }
    }

    /** How many requests a drain waits for are still in progress on this listener; counted on its event loop. */
    Future<Integer> awaited() {
        Promise<Integer> count = Promise.promise();
        context.runOnContext(v -> {
            int n = 0;
            for (Tracked t : tracked.values()) {
                if (t.awaited && !finished(t.request)) {
                    n++;
                }
            }
            count.complete(n);
        });
        return count.future();
    }

    private static boolean finished(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        return response.ended() || response.closed();
    }

    void sweep(long now) {
        long header = limits.headerReadTimeout().toNanos();
        long body = limits.bodyReadTimeout().toNanos();
        long idle = limits.idleTimeout().toNanos();
        for (Iterator<Map.Entry<HttpConnection, Tracked>> it = tracked.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<HttpConnection, Tracked> e = it.next();
            Tracked t = e.getValue();
            HttpServerRequest r = t.request;
            if (r == null) {
                if (now - t.openedAt > header) {
                    it.remove();
                    e.getKey().close();
                }
                continue;
            }
            HttpServerResponse response = r.response();
            boolean done = response.ended() || response.closed();
            if (!done) {
                if (!r.isEnded() && !response.headWritten() && now - t.requestAt > body) {
                    it.remove();
                    LOG.info("request body not received within {} (Server.spec.http.bodyReadTimeout): closing", limits.bodyReadTimeout());
                    response.setStatusCode(408).putHeader("Connection", "close").putHeader("Content-Type", "application/json")
                            .end("{\"error\":\"request body not received within " + limits.bodyReadTimeout().toSeconds() + " s\"}")
                            .onComplete(ar -> e.getKey().close());
                }
                continue;
            }
            t.releaseBody(); // a route that replaced the response's end and close handlers
            if (t.idleSince < 0) {
                t.idleSince = now;
            } else if (now - t.idleSince > idle) {
                it.remove();
                e.getKey().close();
            }
        }
    }
}
