package dev.switchboard.mcp;

import dev.switchboard.auth.Caller;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * MCP's Streamable HTTP transport (revisions 2025-06-18 and 2025-11-25) on Vert.x, as the SDK's server transport SPI
 * asks: the SDK's own providers are servlets, and Switchboard runs no servlet container. {@code POST /mcp} takes one
 * JSON-RPC message (an {@code initialize} opens a session and answers its id in {@code Mcp-Session-Id}); {@code GET
 * /mcp} is a session's listening stream (server notifications such as {@code notifications/tools/list_changed});
 * {@code DELETE /mcp} ends a session.
 *
 * <p>Bounds: at most {@code maxSessions} sessions (a new {@code initialize} over it is 503 with {@code Retry-After}),
 * each ended after {@code idleTimeout} with no request and no open stream; one listening stream per session; a
 * session answers only the caller that opened it (another caller gets 404, as for an unknown session, so that session
 * ids are not a capability). Cancellation, which the SDK leaves to the transport: {@code notifications/cancelled}
 * disposes the named request's pipeline with the {@linkplain #EXPLICIT_CANCEL explicit-cancel flag} set, so the tool
 * can tell the agent (CancelTask); a client that goes away disposes it without the flag.
 */
public final class StreamableHttp implements McpStreamableServerTransportProvider {

    private static final Logger LOG = LoggerFactory.getLogger(StreamableHttp.class);
    public static final String SESSION_HEADER = "Mcp-Session-Id";
    /** The transport context's key for the {@link Caller}. */
    public static final String CALLER = "switchboard.caller";
    /** The Reactor context's key of an {@link AtomicBoolean} set when the client cancelled the request. */
    public static final String EXPLICIT_CANCEL = "switchboard.explicitCancel";
    private static final String CANCELLED = "notifications/cancelled";

    private final Vertx vertx;
    private final McpJsonMapper json;
    private final int maxSessions;
    private final Duration idleTimeout;
    private final Duration keepalive;
    private final ConcurrentHashMap<String, Held> sessions = new ConcurrentHashMap<>();
    private volatile McpStreamableServerSession.Factory factory;
    /** Whether a tool of this name exists: a call of another is refused here, naming it (the SDK's error does not). */
    private volatile java.util.function.Predicate<String> knownTool = name -> true;
    private volatile boolean closing;
    private final long sweepTimer;

    /** One session, its owner, its requests in flight (by JSON-RPC id) and when it was last used. */
    private static final class Held {
        final McpStreamableServerSession session;
        final String callerId;
        final Map<Object, Running> calls = new ConcurrentHashMap<>();
        volatile long lastUsed = System.nanoTime();
        volatile boolean listening;

        Held(McpStreamableServerSession session, String callerId) {
            this.session = session;
            this.callerId = callerId;
        }
    }

    private record Running(Disposable pipeline, AtomicBoolean explicit) {}

    public StreamableHttp(Vertx vertx, McpJsonMapper json, int maxSessions, Duration idleTimeout, Duration keepalive) {
        this.vertx = vertx;
        this.json = json;
        this.maxSessions = maxSessions;
        this.idleTimeout = idleTimeout;
        this.keepalive = keepalive;
        long sweepMs = Math.max(1_000, Math.min(60_000, idleTimeout.toMillis() / 4));
        this.sweepTimer = vertx.setPeriodic(sweepMs, t -> sweep());
    }

    void knownTools(java.util.function.Predicate<String> known) {
        this.knownTool = known;
    }

    public int sessionCount() {
        return sessions.size();
    }

    @Override
    public void setSessionFactory(McpStreamableServerSession.Factory sessionFactory) {
        this.factory = sessionFactory;
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return Flux.fromIterable(sessions.values())
                .flatMap(h -> h.session.sendNotification(method, params).onErrorResume(e -> Mono.empty()))
                .then();
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        Held h = sessions.get(sessionId);
        return h == null ? Mono.empty() : h.session.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        closing = true;
        vertx.cancelTimer(sweepTimer);
        return Flux.fromIterable(List.copyOf(sessions.values()))
                .flatMap(h -> h.session.closeGracefully().onErrorResume(e -> Mono.empty()))
                .then(Mono.fromRunnable(sessions::clear));
    }

    // ---- POST ----

    /** {@code POST /mcp}, its body read (within the route's limit) and its caller known. */
    void post(RoutingContext ctx, Caller caller) {
        HttpServerResponse response = ctx.response();
        if (closing) {
            McpErrors.http(response, 503, null, McpSchema.ErrorCodes.INTERNAL_ERROR, "server shutting down");
            return;
        }
        String body = ctx.body() == null || ctx.body().buffer() == null ? ""
                : ctx.body().buffer().toString(StandardCharsets.UTF_8);
        McpSchema.JSONRPCMessage message;
        try {
            message = McpMessages.read(json, body);
        } catch (McpMessages.Unreadable e) {
            McpErrors.http(response, 400, null, e.code(), e.getMessage());
            return;
        }
        McpTransportContext transport = McpTransportContext.create(Map.of(CALLER, caller));
        if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
            initialize(response, request, caller);
            return;
        }
        Held held = session(ctx.request(), caller, response);
        if (held == null) {
            return;
        }
        held.lastUsed = System.nanoTime();
        if (message instanceof McpSchema.JSONRPCResponse answer) {
            held.session.accept(answer).onErrorResume(e -> Mono.empty()).subscribe();
            response.setStatusCode(202).end();
        } else if (message instanceof McpSchema.JSONRPCNotification note) {
            if (CANCELLED.equals(note.method())) {
                cancel(held, note.params());
            } else {
                held.session.accept(note).contextWrite(c -> c.put(McpTransportContext.KEY, transport))
                        .onErrorResume(e -> Mono.empty()).subscribe();
            }
            response.setStatusCode(202).end();
        } else if (message instanceof McpSchema.JSONRPCRequest request) {
            call(held, request, response, transport);
        }
    }

    private void initialize(HttpServerResponse response, McpSchema.JSONRPCRequest request, Caller caller) {
        if (sessions.size() >= maxSessions) {
            response.putHeader("Retry-After", "1");
            McpErrors.http(response, 503, request.id(), McpSchema.ErrorCodes.INTERNAL_ERROR,
                    "server busy: the MCP door holds its maximum of " + maxSessions
                            + " sessions (Server.spec.mcp.maxSessions); close one (DELETE /mcp) or retry later");
            return;
        }
        McpSchema.InitializeRequest init;
        try {
            init = json.convertValue(request.params(), new TypeRef<McpSchema.InitializeRequest>() {});
        } catch (RuntimeException e) {
            init = null;
        }
        if (init == null || init.protocolVersion() == null) {
            McpErrors.http(response, 400, request.id(), McpSchema.ErrorCodes.INVALID_PARAMS,
                    "invalid params: initialize needs params.protocolVersion, params.capabilities and params.clientInfo");
            return;
        }
        io.vertx.core.Context context = vertx.getOrCreateContext();
        McpStreamableServerSession.McpStreamableServerSessionInit started = factory.startSession(init);
        Held held = new Held(started.session(), caller.id());
        sessions.put(started.session().getId(), held);
        started.initResult().subscribe(result -> vertxEnd(context, response, () -> {
            try {
                response.putHeader(SESSION_HEADER, started.session().getId())
                        .putHeader("Content-Type", "application/json")
                        .end(json.writeValueAsString(McpSchema.JSONRPCResponse.result(request.id(), result)));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }), e -> vertxEnd(context, response, () -> {
            sessions.remove(started.session().getId());
            McpErrors.http(response, 400, request.id(), McpSchema.ErrorCodes.INVALID_PARAMS,
                    "initialize refused: " + McpErrors.safe(e));
        }));
    }

    private void call(Held held, McpSchema.JSONRPCRequest request, HttpServerResponse response,
            McpTransportContext transport) {
        Object id = request.id();
        if (McpSchema.METHOD_TOOLS_CALL.equals(request.method()) && request.params() instanceof Map<?, ?> p
                && p.get("name") instanceof String name && !knownTool.test(name)) {
            McpErrors.http(response, 200, id, McpSchema.ErrorCodes.INVALID_PARAMS, "unknown tool: "
                    + (name.length() > 128 ? name.substring(0, 128) + "…" : name) + " (tools/list names the tools)");
            return;
        }
        if (id != null && held.calls.containsKey(id)) {
            McpErrors.http(response, 400, id, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "invalid request: id " + id + " is already in use by a request in flight on this session");
            return;
        }
        AtomicBoolean explicit = new AtomicBoolean();
        HttpStream stream = HttpStream.forRequest(vertx, response, json, keepalive);
        Disposable pipeline = held.session.responseStream(request, stream)
                .contextWrite(c -> c.put(McpTransportContext.KEY, transport).put(EXPLICIT_CANCEL, explicit))
                .doFinally(s -> {
                    held.calls.remove(id);
                    held.lastUsed = System.nanoTime();
                })
                .subscribe(v -> {}, e -> {
                    LOG.debug("MCP request {} failed: {}", request.method(), e.toString());
                    stream.close();
                });
        if (!pipeline.isDisposed() && id != null) {
            held.calls.put(id, new Running(pipeline, explicit));
        }
        stream.onGone(() -> {
            // the client went away: the answer cannot reach it (no resumability), so the work stops, unasked
            Running r = held.calls.remove(id);
            if (r != null) {
                r.pipeline.dispose();
            }
        });
    }

    /** {@code notifications/cancelled}: the named request of this session stops, and says so to the agent. */
    private void cancel(Held held, Object params) {
        Object requestId = params instanceof Map<?, ?> m ? m.get("requestId") : null;
        if (requestId == null) {
            return;
        }
        Running r = held.calls.remove(requestId);
        if (r == null && requestId instanceof Number n) {
            // ids round-trip through JSON: 7 may come back as 7L or 7.0
            r = held.calls.remove(n.intValue());
        }
        if (r != null) {
            r.explicit.set(true);
            r.pipeline.dispose();
        }
    }

    // ---- GET, DELETE ----

    /** {@code GET /mcp}: the session's listening stream, for notifications the server sends unasked. */
    void get(RoutingContext ctx, Caller caller) {
        HttpServerResponse response = ctx.response();
        String accept = ctx.request().getHeader("Accept");
        if (accept != null && !accept.contains("text/event-stream") && !accept.contains("*/*")) {
            McpErrors.http(response, 406, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "not acceptable: GET /mcp answers text/event-stream only");
            return;
        }
        Held held = session(ctx.request(), caller, response);
        if (held == null) {
            return;
        }
        synchronized (held) {
            if (held.listening) {
                McpErrors.http(response, 409, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                        "conflict: this session already has a listening stream (one GET /mcp per session)");
                return;
            }
            held.listening = true;
        }
        HttpStream stream = HttpStream.listening(vertx, response, json, keepalive);
        McpStreamableServerSession.McpStreamableServerSessionStream listening = held.session.listeningStream(stream);
        stream.onGone(() -> {
            held.listening = false;
            held.lastUsed = System.nanoTime();
            listening.close();
        });
    }

    /** {@code DELETE /mcp}: the client ends its session. */
    void delete(RoutingContext ctx, Caller caller) {
        HttpServerResponse response = ctx.response();
        Held held = session(ctx.request(), caller, response);
        if (held == null) {
            return;
        }
        end(held);
        response.setStatusCode(204).end();
    }

    private void end(Held held) {
        sessions.remove(held.session.getId(), held);
        held.calls.values().forEach(r -> r.pipeline.dispose());
        held.calls.clear();
        held.session.closeGracefully().onErrorResume(e -> Mono.empty()).subscribe();
    }

    /** The request's session, or null after answering 400 (no id) or 404 (unknown, or another caller's). */
    private Held session(HttpServerRequest request, Caller caller, HttpServerResponse response) {
        String id = request.getHeader(SESSION_HEADER);
        if (id == null || id.isBlank()) {
            McpErrors.http(response, 400, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "bad request: Mcp-Session-Id header missing (send initialize first)");
            return null;
        }
        Held held = sessions.get(id);
        if (held == null || !held.callerId.equals(caller.id())) {
            McpErrors.http(response, 404, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "session not found: it ended or never existed; send initialize again");
            return null;
        }
        return held;
    }

    /** Ends sessions idle for longer than the timeout: no request, no call in flight, no listening stream. */
    private void sweep() {
        long now = System.nanoTime();
        for (Held h : sessions.values()) {
            if (h.calls.isEmpty() && !h.listening && now - h.lastUsed > idleTimeout.toNanos()) {
                end(h);
            }
        }
    }

    private static void vertxEnd(io.vertx.core.Context context, HttpServerResponse response, Runnable write) {
        context.runOnContext(v -> {
            if (!response.ended() && !response.closed()) {
                write.run();
            }
        });
    }
}
