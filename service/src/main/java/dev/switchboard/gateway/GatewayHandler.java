package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.switchboard.auth.Caller;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.auth.TokenChecksBusy;
import dev.switchboard.auth.Unauthorized;
import dev.switchboard.http.ContentLength;
import dev.switchboard.http.RequestBudget;
import dev.switchboard.policy.AccessControl;
import dev.switchboard.policy.CallerLimits;
import dev.switchboard.policy.Grants;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.registry.AgentIds;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.ConcurrencyLimiter;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.tracing.Tracing;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * {@code POST /a2a/{agentId}} (G1–G8, G11): authenticates the caller, finds the agent, checks that an AccessPolicy
 * grants the caller the agent and that the caller is within its limits, takes a slot of the agent's concurrency cap
 * (and of the caller's) and a share of the gateway's request-byte budget — all before reading the body —
 * then reads the body within the request limit, validates only what routing needs, checks the method's grant and
 * hands the call to a {@link GatewayCall}, which forwards the original bytes, relays the reply and gives slots and
 * bytes back.
 */
public final class GatewayHandler implements Handler<RoutingContext> {

    private static final String PREFIX = "/a2a/";
    private static final String STREAM_SUFFIX = "/stream";
    /** What a {@code GET …/stream} asks the agent for. */
    static final String STREAM_METHOD = "message/stream";
    /** The most of a refused call's body read to find its id. */
    private static final String BUDGET_FULL = "server busy: the gateway holds its maximum of request bytes; retry shortly";

    private final Vertx vertx;
    private final AgentConnections connections;
    private final AgentRegistry registry;
    private final HeaderPolicy headerPolicy;
    private final CallerAuth auth;
    private final GatewayMetrics metrics;
    private final GatewaySettings settings;
    private final Egress egress;
    private final RequestBudget budget;
    private final Tracing tracing;
    private final CallerIdentity identity;
    private final CallerMetrics callers;
    private final AccessControl access;
    private final CallerRefusals refusals;
    private final GatewayReplies replies;
    private final TaskStreams streams;
    private final StreamResumes resumes;
    /** Push configs and callbacks (G14); null until the app gives them (a store is needed). */
    private PushConfigCalls pushConfigs;
    private PushCallbacks pushCallbacks;
    private java.util.function.Function<HttpServerRequest, String> baseUrl;

    public GatewayHandler(Vertx vertx, AgentConnections connections, AgentRegistry registry, HeaderPolicy headerPolicy,
            CallerAuth auth, GatewayMetrics metrics, GatewaySettings settings, Egress egress, Tracing tracing,
            RequestBudget budget, AccessControl access, CallerIdentity identity, CallerMetrics callers) {
        this.identity = identity;
        this.callers = callers;
        this.access = access;
        this.replies = new GatewayReplies(budget);
        this.refusals = new CallerRefusals(metrics, replies::namingId);
        this.tracing = tracing;
        this.egress = egress;
        // the server's one budget (settings.maxRequestBytesInFlight), which every other route's bodies count against too
        this.budget = budget;
        metrics.watchRequestBytes(budget);
        this.vertx = vertx;
        this.connections = connections;
        this.registry = registry;
        this.headerPolicy = headerPolicy;
        this.auth = auth;
        this.metrics = metrics;
        this.settings = settings;
        this.streams = new TaskStreams(settings.streamBuffer());
        this.resumes = new StreamResumes(vertx, streams, metrics, settings);
    }

    /** Push notifications through the gateway (G14); {@code baseUrl} is the gateway's URL as agents reach it. */
    public void push(PushConfigCalls configs, PushCallbacks callbacks, java.util.function.Function<HttpServerRequest, String> base) {
        this.pushConfigs = configs;
        this.pushCallbacks = callbacks;
        this.baseUrl = base;
    }

    /** {@code POST /a2a/{agentId}/push/{callbackId}}: an agent's notification (G14). */
    public void pushCallback(RoutingContext ctx) {
        if (pushCallbacks == null) {
            ctx.response().setStatusCode(404).end();
        } else {
            pushCallbacks.handle(ctx);
        }
    }

    public CallerIdentity identity() {
        return identity;
    }

    @Override
    public void handle(RoutingContext ctx) {
        handle(ctx.request(), ctx.pathParam("agentId"));
    }

    /** {@code GET /a2a/{agentId}/stream}, for the router (paths with escapes). */
    public void handleStream(RoutingContext ctx) {
        stream(ctx.request(), ctx.pathParam("agentId"));
    }

    /**
     * The hot path: {@code POST /a2a/{agentId}} (and {@code GET /a2a/{agentId}/stream}) taken before the router,
     * which would otherwise match every route and build a routing context for each call. Returns false for
     * anything else.
     */
    public boolean tryHandle(HttpServerRequest request) {
        String path = request.path();
        if (path == null || !path.startsWith(PREFIX) || path.length() == PREFIX.length()) {
            return false;
        }
        HttpMethod method = request.method();
        if (method == HttpMethod.POST) {
            String agentId = path.substring(PREFIX.length());
            if (agentId.indexOf('/') >= 0 || agentId.indexOf('%') >= 0) {
                return false; // the router decodes and answers odd paths
            }
            handle(request, agentId);
            return true;
        }
        if (method == HttpMethod.GET && path.endsWith(STREAM_SUFFIX) && path.length() > PREFIX.length() + STREAM_SUFFIX.length()) {
            String agentId = path.substring(PREFIX.length(), path.length() - STREAM_SUFFIX.length());
            if (agentId.indexOf('/') >= 0 || agentId.indexOf('%') >= 0) {
                return false;
            }
            stream(request, agentId);
            return true;
        }
        return false;
    }

    /**
     * {@code GET /a2a/{agentId}/stream}: KubeMQ's second streaming mode, where the caller sends no body and the
     * agent pushes. The agent is sent what KubeMQ's own mock agents answer with a stream — a POST of
     * {@code {"jsonrpc":"2.0","id":"stream-<uuid>","method":"message/stream","params":{}}} to its URL, with the
     * caller's headers under the same policy — and its reply is relayed exactly as a {@code message/stream}
     * call's: the same cap, keepalive, idle timeout and disconnect rules, by the same {@link GatewayCall}. A GET a
     * browser marks as another site's ({@link CrossSiteRequest}) is refused 403 first: any page can send one.
     */
    private void stream(HttpServerRequest request, String agentId) {
        long started = System.nanoTime();
        GatewaySpan span = GatewaySpan.start(tracing, request, GatewaySpan.STREAM);
        String crossSite = CrossSiteRequest.refusal(request);
        if (crossSite != null) {
            // a page on another site may not start a call with a GET it needs no preflight for (a POST needs one)
            metrics.record("unknown", null, GatewayMetrics.Outcome.UNAUTHORIZED, -1);
            span.end("unknown", null, GatewayMetrics.Outcome.UNAUTHORIZED, 403);
            GatewayReplies.unread(request, new GatewayException(null, JsonRpcError.INVALID_REQUEST, crossSite,
                    GatewayException.Kind.REQUEST), 403, false);
            return;
        }
        withCaller(request, span, caller -> stream(request, agentId, caller, started, span));
    }

    private void stream(HttpServerRequest request, String agentId, Caller caller, long started, GatewaySpan span) {
        RegisteredAgent agent = agentOrRefuse(request, agentId, span);
        if (agent == null) {
            return;
        }
        Grants.Decision granted = access.grants().call(caller, agent, STREAM_METHOD);
        if (!granted.allowed()) {
            refusals.forbidden(request, agent, caller, null, granted, span, false);
            return;
        }
        callers.count(caller, agent.id());
        if (declaredLength(request) > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
            metrics.record(agent.id(), null, GatewayMetrics.Outcome.INVALID_REQUEST, -1);
            span.end(agent.id(), null, GatewayMetrics.Outcome.INVALID_REQUEST, 200);
            GatewayReplies.unread(request, new GatewayException(null, JsonRpcError.INVALID_REQUEST,
                    "invalid request: GET /a2a/" + agent.id() + "/stream takes no body (POST message/stream to send one)",
                    GatewayException.Kind.REQUEST), 200, false);
            return;
        }
        CallSlots permit = slots(request, agent, caller, granted, span);
        if (permit == null) {
            return;
        }
        String id = "stream-" + UUID.randomUUID();
        String lastEventId = request.getHeader(StreamResumes.LAST_EVENT_ID);
        StreamResumes.EventId last = lastEventId == null ? null : StreamResumes.EventId.parse(lastEventId.trim());
        // a resume (G13) subscribes to the task its Last-Event-ID names, in the version the caller speaks
        String method = last == null ? STREAM_METHOD : "1.0".equals(request.getHeader("A2A-Version"))
                ? "SubscribeToTask" : "tasks/resubscribe";
        String params = last == null ? "{}" : "{\"id\":" + TextNode.valueOf(last.taskId()) + "}";
        Buffer body = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"" + method + "\",\"params\":"
                + params + "}");
        Consumer<MultiMap> headers = out -> {
            headerPolicy.writeTo(out, request.headers(), caller.id(), agent.headers());
            identity.writeTo(out, caller, agent);
            if (!out.contains("Accept")) {
                out.set("Accept", "text/event-stream");
            }
            span.propagate(out);
        };
        RoutingFields fields = new RoutingFields(TextNode.valueOf(id), lastEventId == null ? STREAM_METHOD : method, null);
        start(request, agent, caller, fields, body, permit, budget.open(), headers, started, span);
    }

    /**
     * Goes on with the caller once {@link CallerAuth} has it: at once (an API key, a token verified lately or with its
     * issuer's keys at hand), or, when a token's issuer's keys are being fetched again, on this request's own context
     * when they are (the request paused meanwhile). A refused caller is answered 401 here.
     */
    private void withCaller(HttpServerRequest request, GatewaySpan span, Consumer<Caller> then) {
        Future<Caller> caller = auth.authenticate(request);
        if (caller.isComplete()) {
            proceed(request, span, caller, then);
            return;
        }
        request.pause();
        Context context = vertx.getOrCreateContext();
        caller.onComplete(done -> context.runOnContext(v -> proceed(request, span, caller, then)));
    }

    private void proceed(HttpServerRequest request, GatewaySpan span, Future<Caller> caller, Consumer<Caller> then) {
        if (caller.succeeded()) {
            span.caller(caller.result());
            then.accept(caller.result());
            return;
        }
        if (caller.cause() instanceof TokenChecksBusy busy) {
            // 429, not 503: the load is callers' (new tokens faster than they can be checked), not an agent's
            metrics.record("unknown", null, GatewayMetrics.Outcome.RATE_LIMITED, -1);
            span.end("unknown", null, GatewayMetrics.Outcome.RATE_LIMITED, 429);
            GatewayReplies.unread(request, new GatewayException(null, GatewayErrorCodes.RATE_LIMITED, busy.getMessage(),
                    GatewayException.Kind.TRANSPORT_RETRYABLE), 429, true);
            return;
        }
        String challenge = caller.cause() instanceof Unauthorized u ? u.challenge() : "Bearer";
        String message = caller.cause() instanceof Unauthorized u ? u.getMessage() : "unauthorized";
        metrics.record("unknown", null, GatewayMetrics.Outcome.UNAUTHORIZED, -1);
        span.end("unknown", null, GatewayMetrics.Outcome.UNAUTHORIZED, 401);
        request.response()
                .setStatusCode(401)
                .putHeader("WWW-Authenticate", challenge)
                .putHeader("Content-Type", "application/json");
        GatewayReplies.unread(request, new GatewayException(null, JsonRpcError.INVALID_REQUEST, message,
                GatewayException.Kind.REQUEST), 401, false);
    }

    /** The registered agent, or null when the id is malformed or unknown (answered here). */
    private RegisteredAgent agentOrRefuse(HttpServerRequest request, String agentId, GatewaySpan span) {
        // everything that can refuse a call without its body is decided before a byte of it is read:
        // a caller must not make the gateway buffer 10 MiB to learn that the agent is unknown or busy.
        // Registered ids are valid ones: the id's pattern is only checked when no agent has it.
        RegisteredAgent agent = registry.find(agentId).orElse(null);
        if (agent != null) {
            return agent;
        }
        if (!AgentIds.isValid(agentId)) {
            metrics.record("unknown", null, GatewayMetrics.Outcome.INVALID_REQUEST, -1);
            span.end("unknown", null, GatewayMetrics.Outcome.INVALID_REQUEST, 200);
            replies.namingId(request, new GatewayException(null, JsonRpcError.INVALID_REQUEST,
                    "invalid request: malformed agent id '" + agentId + "': " + AgentIds.rule(),
                    GatewayException.Kind.REQUEST), 200, false);
            return null;
        }
        metrics.record("unknown", null, GatewayMetrics.Outcome.NOT_FOUND, -1);
        span.end("unknown", null, GatewayMetrics.Outcome.NOT_FOUND, 200);
        replies.namingId(request, new GatewayException(null, GatewayErrorCodes.AGENT_NOT_FOUND,
                "agent not found: " + agentId, GatewayException.Kind.TRANSPORT_FINAL), 200, false);
        return null;
    }

    private void handle(HttpServerRequest request, String agentId) {
        long started = System.nanoTime();
        GatewaySpan span = GatewaySpan.start(tracing, request);
        withCaller(request, span, caller -> handle(request, agentId, caller, started, span));
    }

    private void handle(HttpServerRequest request, String agentId, Caller caller, long started, GatewaySpan span) {
        RegisteredAgent agent = agentOrRefuse(request, agentId, span);
        if (agent == null) {
            return;
        }
        // one snapshot of the policies for the whole call: a reload swaps them between calls, never within one
        Grants grants = access.grants();
        Grants.Decision granted = grants.agent(caller, agent);
        if (!granted.allowed()) {
            // no method of this agent is granted: refused before a byte of the body is read
            refusals.forbidden(request, agent, caller, null, granted, span, true);
            return;
        }
        callers.count(caller, agent.id());
        if (!JsonContentType.is(request.getHeader(HttpHeaders.CONTENT_TYPE))) {
            metrics.record(agent.id(), null, GatewayMetrics.Outcome.INVALID_REQUEST, -1);
            span.end(agent.id(), null, GatewayMetrics.Outcome.INVALID_REQUEST, 200);
            GatewayReplies.unread(request, new GatewayException(null, JsonRpcError.PARSE_ERROR,
                    "parse error: Content-Type must be application/json, got "
                            + Optional.ofNullable(request.getHeader(HttpHeaders.CONTENT_TYPE)).orElse("none"),
                    GatewayException.Kind.REQUEST), 200, false);
            return;
        }
        long declared = declaredLength(request);
        if (declared > settings.maxRequestBytes()) {
            tooLarge(request, settings.maxRequestBytes(), span);
            return;
        }
        CallSlots permit = slots(request, agent, caller, granted, span);
        if (permit == null) {
            return;
        }
        RequestBudget.Reservation bytes = budget.open();
        if (declared > 0 && !bytes.grow(declared)) {
            permit.release();
            busy(request, agent, BUDGET_FULL, span);
            return;
        }
        readBody(request, agent, declared, permit, bytes, span,
                body -> dispatch(request, agent, caller, grants, body, permit, bytes, started, span));
    }

    private void dispatch(HttpServerRequest request, RegisteredAgent agent, Caller caller, Grants grants, Buffer body,
            CallSlots permit, RequestBudget.Reservation bytes, long started, GatewaySpan span) {
        RoutingFields fields;
        try {
            fields = RoutingFields.parse(body);
        } catch (GatewayException e) {
            permit.release();
            bytes.release();
            metrics.record(agent.id(), null, GatewayMetrics.Outcome.INVALID_REQUEST, -1);
            span.end(agent.id(), null, GatewayMetrics.Outcome.INVALID_REQUEST, 200);
            GatewayReplies.error(request.response(), e, 200, false);
            return;
        }
        Grants.Decision granted = grants.call(caller, agent, fields.method());
        if (!granted.allowed()) {
            // the method needed the body; the agent has still not been contacted
            permit.release();
            bytes.release();
            refusals.forbidden(request, agent, caller, fields, granted, span, false);
            return;
        }
        start(request, agent, caller, fields, body, permit, bytes, out -> {
            headerPolicy.writeTo(out, request.headers(), caller.id(), agent.headers());
            identity.writeTo(out, caller, agent);
            span.propagate(out);
        }, started, span);
    }

    /** Starts the call to the agent, or answers a resume (G13) from the task's buffer first, or a push config (G14). */
    private void start(HttpServerRequest request, RegisteredAgent agent, Caller caller, RoutingFields fields, Buffer body,
            CallSlots permit, RequestBudget.Reservation bytes, Consumer<MultiMap> headers, long started, GatewaySpan span) {
        if (pushConfigs != null && PushConfigCalls.handles(fields.method())) {
            pushConfigs.handle(agent.id(), caller.id(), fields.method(), body, baseUrl.apply(request), new PushOutcome(
                    request, fields, permit, bytes, metrics, span, agent.id(), started, (b, reply) -> new GatewayCall(
                    connections, egress, request, agent, fields, b, permit, bytes, headers, metrics, settings, started,
                    span).caller(caller.id()).replyFilter(reply).start()));
            return;
        }
        if (resumes.isResume(request, fields.method())) {
            resumes.resume(request, agent.id(), caller.id(), fields, body, permit, bytes, started, span, (tap, missed) ->
                    new GatewayCall(connections, egress, request, agent, fields, body, permit, bytes, headers, metrics,
                            settings, started, span).caller(caller.id()).tap(tap, missed).start());
            return;
        }
        new GatewayCall(connections, egress, request, agent, fields, body, permit, bytes, headers, metrics, settings,
                started, span).caller(caller.id()).tap(new StreamTap(streams, agent.id(), caller.id()), List.of()).start();
    }

    /** The caller's rate limits, the agent's cap, the caller's cap: the call's places, or null when refused (answered). */
    private CallSlots slots(HttpServerRequest request, RegisteredAgent agent, Caller caller, Grants.Decision granted,
            GatewaySpan span) {
        CallerLimits limits = access.limits();
        CallerLimits.Limited limited = limits.take(caller.id(), agent.id(), granted.rate());
        if (limited != null) {
            refusals.rateLimited(request, agent, caller, granted, limited, span);
            return null;
        }
        metrics.watchInFlight(agent.id());
        ConcurrencyLimiter limiter = registry.limiter(agent.id());
        ConcurrencyLimiter.Permit permit = limiter.tryAcquire(agent.limits().maxConcurrency());
        if (permit == null) {
            busy(request, agent, "server busy: " + agent.id() + " has " + limiter.inFlight() + " calls in flight", span);
            return null;
        }
        CallerLimits.Slot slot = limits.acquire(caller.id());
        if (slot == null) {
            permit.release();
            refusals.rateLimited(request, agent, caller, granted,
                    new CallerLimits.Limited(CallerLimits.Limit.CALLER_CONCURRENCY, 1), span);
            return null;
        }
        return new CallSlots(permit, slot);
    }

    private void busy(HttpServerRequest request, RegisteredAgent agent, String message, GatewaySpan span) {
        metrics.record(agent.id(), null, GatewayMetrics.Outcome.BUSY, -1);
        span.end(agent.id(), null, GatewayMetrics.Outcome.BUSY, 503);
        replies.namingId(request, new GatewayException(null, JsonRpcError.INTERNAL_ERROR, message,
                GatewayException.Kind.TRANSPORT_RETRYABLE), 503, true);
    }

    /**
     * Collects the body up to the limit, growing the byte reservation as chunks arrive when no length
     * was declared ({@code declared} < 0). The slot and the bytes are given back on every way out before the call starts:
     * too large, over the budget, the caller gone.
     */
    private void readBody(HttpServerRequest request, RegisteredAgent agent, long declared,
            CallSlots permit, RequestBudget.Reservation bytes, GatewaySpan span, Handler<Buffer> then) {
        long limit = settings.maxRequestBytes();
        boolean countChunks = declared < 0;
        BodyCollector body = new BodyCollector(declared);
        boolean[] failed = {false};
        Runnable release = () -> {
            failed[0] = true;
            permit.release();
            bytes.release();
        };
        request.handler(chunk -> {
            if (failed[0]) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                release.run();
                tooLarge(request, limit, span);
                return;
            }
            if (countChunks && !bytes.grow(chunk.length())) {
                release.run();
                // part of the body is gone already: no id can be found in the rest, and it is not read
                metrics.record(agent.id(), null, GatewayMetrics.Outcome.BUSY, -1);
                span.end(agent.id(), null, GatewayMetrics.Outcome.BUSY, 503);
                GatewayReplies.unread(request, new GatewayException(null, JsonRpcError.INTERNAL_ERROR, BUDGET_FULL,
                        GatewayException.Kind.TRANSPORT_RETRYABLE), 503, true);
                return;
            }
            body.add(chunk);
        });
        request.endHandler(v -> {
            if (!failed[0]) {
                // from here the call owns the slot and the bytes and gives them back when it finishes
                request.exceptionHandler(null);
                request.response().closeHandler(null);
                then.handle(body.buffer());
            }
        });
        // the caller went away before its body was all read: no metric counts it, but its span ends
        request.exceptionHandler(e -> {
            release.run();
            span.end(agent.id(), null, GatewayMetrics.Outcome.CALLER_DISCONNECTED, request.response().getStatusCode());
        });
        request.response().closeHandler(v -> {
            release.run();
            span.end(agent.id(), null, GatewayMetrics.Outcome.CALLER_DISCONNECTED, request.response().getStatusCode());
        });
        request.resume();
    }

    private void tooLarge(HttpServerRequest request, long limit, GatewaySpan span) {
        metrics.record("unknown", null, GatewayMetrics.Outcome.INVALID_REQUEST, -1);
        span.end("unknown", null, GatewayMetrics.Outcome.INVALID_REQUEST, 413);
        HttpServerResponse response = request.response();
        if (!response.ended()) {
            response.setStatusCode(413).putHeader("Connection", "close");
            GatewayReplies.error(response, new GatewayException(null, JsonRpcError.INVALID_REQUEST,
                    "invalid request: body larger than " + limit + " bytes", GatewayException.Kind.REQUEST), 413, false);
        }
    }

    /** The declared Content-Length, or -1 when none (chunked) or unreadable. */
    private static long declaredLength(HttpServerRequest request) {
        // Vert.x's header names are AsciiStrings: hashed once, compared to the parsed names byte by byte
        return ContentLength.of(request.getHeader(HttpHeaders.CONTENT_LENGTH));
    }
}
