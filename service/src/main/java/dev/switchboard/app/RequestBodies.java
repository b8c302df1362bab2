package dev.switchboard.app;

import dev.switchboard.chat.slack.SlackPlatform;
import dev.switchboard.chat.web.WebChatRoutes;
import dev.switchboard.http.ContentLength;
import dev.switchboard.http.JsonHttp;
import dev.switchboard.http.RequestBudget;
import dev.switchboard.mcp.McpSettings;
import dev.switchboard.registry.RegistryRoutes;
import dev.switchboard.trigger.TriggerRoutes;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.http.HttpServerRequestInternal;
import io.vertx.core.internal.http.HttpServerRequestWrapper;
import io.vertx.core.internal.net.RFC3986;
import java.util.List;

/**
 * Every body the router's routes read counts against the server's one {@link RequestBudget} before a byte of it is
 * read (H2), within their share of it ({@link #ANONYMOUS_SHARE}): the routes buffer a body before they check a signature or a token ({@code /slack/events} must, to verify
 * it), so without this, stalled bodies from anyone would hold the heap. A declared {@code Content-Length} over its
 * route's maximum is refused 413, and one the budget has no room for 503 with {@code Retry-After}, both unread and
 * with the connection closed; a chunked body is counted chunk by chunk as its route reads it, and refused the same way
 * once it no longer fits. The reservation is given back once, when the response ends or the connection closes (the
 * {@link ConnectionGuard} also gives it back at the connection's next request, its close and its sweep, for a route that
 * replaced the response's handlers).
 *
 * <p>Not on the gateway's hot path: the gateway takes its requests before the router and reserves their bodies itself,
 * from the same budget, once it knows the caller and the agent.
 */
final class RequestBodies {

    /** The gateway's paths: it budgets its own bodies, also when the router hands it one (an escaped id). */
    private static final String GATEWAY = "/a2a";
    /** What a body may declare on a path no route below reads one of: as much as the largest that does. */
    static final long OTHERWISE = 1024 * 1024;
    /** The routes that read a body, and the most each reads: their own limits, known here before routing. */
    static final List<Limit> LIMITS = List.of(
            new Limit("/slack/", SlackPlatform.MAX_BODY),
            new Limit("/agents/", RegistryRoutes.MAX_BODY),
            new Limit("/api/chat/", WebChatRoutes.MAX_BODY),
            new Limit("/triggers/", TriggerRoutes.MAX_BODY),
            // the MCP door's bodies: a send's text (Server.spec.mcp.maxTextBytes) in its JSON-RPC envelope
            new Limit("/mcp", McpSettings.DEFAULTS.maxBodyBytes()));
    /**
     * The router's bodies may hold at most 1/this of the budget: they are read before anyone knows who sent them, so
     * stalled ones from anyone could otherwise take it all, and a keyed gateway caller (whose body is reserved only
     * once its key is checked) would get 503 too.
     */
    static final int ANONYMOUS_SHARE = 2;
    static final String BUSY = "server busy: the server holds its maximum of request bytes in flight"
            + " (Server.spec.gateway.maxRequestBytesInFlight); retry shortly";

    /** Paths starting with {@code prefix} read at most {@code maxBytes} of a body. */
    record Limit(String prefix, long maxBytes) {}

    private final RequestBudget budget;

    RequestBodies(RequestBudget budget) {
        this.budget = budget;
    }

    RequestBudget budget() {
        return budget;
    }

    /**
     * The request to route: itself (no body, a gateway path, or its declared length reserved), or a view of it that
     * counts its chunks against the budget as the route reads them; null when it was refused (answered here).
     */
    HttpServerRequest admit(HttpServerRequest request, ConnectionGuard.Tracked connection) {
        long declared = ContentLength.of(request.getHeader(HttpHeaders.CONTENT_LENGTH));
        boolean chunked = declared < 0 && request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
        if (declared <= 0 && !chunked) {
            return request; // no body: every GET, the probes
        }
        if (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD) {
            // no route reads the body of a GET; reserving one would pin budget for a stream's whole life
            refuse(request, 400, "body: a " + request.method() + " request carries none");
            return null;
        }
        // the router routes by the normalised path (dot segments removed, %2e decoded): so must this, or
        // /a2a/../slack/events would pass as the gateway's, unbudgeted, and reach Slack's route
        String path;
        try {
            path = request.path() == null ? null : RFC3986.normalizePath(request.path());
        } catch (RuntimeException malformed) {
            refuse(request, 400, "path: malformed");
            return null;
        }
        if (path != null && path.startsWith(GATEWAY) && (path.length() == GATEWAY.length() || path.charAt(GATEWAY.length()) == '/')) {
            return request;
        }
        long max = maxFor(path);
        if (declared > max) {
            refuse(request, 413, "body: larger than " + size(max));
            return null;
        }
        RequestBudget.Reservation bytes = budget.open(budget.max() / ANONYMOUS_SHARE);
        if (declared > 0 && !bytes.grow(declared)) {
            refuse(request, 503, BUSY);
            return null;
        }
        ConnectionGuard.hold(connection, bytes);
        HttpServerResponse response = request.response();
        response.endHandler(v -> bytes.release());
        response.closeHandler(v -> bytes.release());
        return chunked ? new Counted((HttpServerRequestInternal) request, bytes, max) : request;
    }

    /** A limit as the routes' own refusals say it ("64 KiB"), or in bytes when it is no whole number of KiB. */
    static String size(long bytes) {
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }

    static long maxFor(String path) {
        if (path != null) {
            for (Limit l : LIMITS) {
                if (path.startsWith(l.prefix())) {
                    return l.maxBytes();
                }
            }
        }
        return OTHERWISE;
    }

    /** How long a refused request's connection waits for the rest of its body (read and dropped) before it closes. */
    static final java.time.Duration LINGER = java.time.Duration.ofSeconds(5);
    /** How much of a refused body is read and dropped at most before its connection closes. */
    static final long LINGER_BYTES = 4L * 1024 * 1024;

    /**
     * Answers a request whose body is not kept, and closes its connection: nothing of the body is held, so the budget
     * stays free. A response already under way can only be cut. Before closing, the connection lingers a little
     * ({@link #linger}): many clients (the JDK's HttpClient, curl) read the answer only once they have sent their whole
     * body, and would otherwise get a reset, or wait forever, instead of the refusal.
     */
    static void refuse(HttpServerRequest request, int status, String message) {
        HttpServerResponse response = request.response();
        if (response.ended() || response.closed()) {
            return;
        }
        if (response.headWritten()) {
            request.connection().close();
            return;
        }
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CONNECTION, "close");
        if (status == 503) {
            response.putHeader("Retry-After", "1");
        }
        response.end(JsonHttp.errorBody(message, status == 413 ? "body" : null).toString())
                .onComplete(ar -> linger(request));
    }

    /**
     * Closes a refused request's connection once its client has sent the rest of its body — read and dropped, never
     * kept — or after {@link #LINGER} or {@link #LINGER_BYTES}, whichever comes first: a stalled or endless body holds
     * the connection no longer than that.
     */
    static void linger(HttpServerRequest request) {
        io.vertx.core.http.HttpConnection connection = request.connection();
        if (request.isEnded()) {
            connection.close();
            return;
        }
        io.vertx.core.Vertx vertx = ((HttpServerRequestInternal) request).context().owner();
        long timer = vertx.setTimer(LINGER.toMillis(), t -> connection.close());
        long[] left = {LINGER_BYTES};
        Runnable done = () -> {
            vertx.cancelTimer(timer);
            connection.close();
        };
        request.handler(chunk -> {
            left[0] -= chunk.length();
            if (left[0] < 0) {
                done.run();
            }
        });
        request.endHandler(v -> done.run());
        request.exceptionHandler(e -> done.run());
        request.resume();
    }

    /**
     * A chunked request as its route sees it: each chunk is reserved before the route's handler gets it, so what the
     * route buffers is always inside the budget. Vert.x Web wraps this in turn; its handler reaches us through
     * {@link #handler}.
     */
    private static final class Counted extends HttpServerRequestWrapper {
        private final RequestBudget.Reservation bytes;
        private final long max;
        private boolean refused;

        Counted(HttpServerRequestInternal request, RequestBudget.Reservation bytes, long max) {
            super(request);
            this.bytes = bytes;
            this.max = max;
        }

        @Override
        public HttpServerRequest handler(Handler<Buffer> handler) {
            if (handler == null) {
                delegate.handler(null);
                return this;
            }
            delegate.handler(chunk -> {
                if (refused) {
                    return;
                }
                if (bytes.held() + chunk.length() > max) {
                    refused = true;
                    refuse(delegate, 413, "body: larger than " + size(max));
                } else if (!bytes.grow(chunk.length())) {
                    refused = true;
                    refuse(delegate, 503, BUSY);
                } else {
                    handler.handle(chunk);
                }
            });
            return this;
        }
    }
}
