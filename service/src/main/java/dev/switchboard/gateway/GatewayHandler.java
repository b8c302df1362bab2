package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.registry.AgentIds;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code POST /a2a/{agentId}} (G1–G8, G11): authenticates the caller, reads the body within the
 * request limit, validates only what routing needs, takes a slot of the agent's concurrency cap and
 * hands the call to a {@link GatewayCall}, which forwards the original bytes and relays the reply.
 */
public final class GatewayHandler implements Handler<RoutingContext> {

    private static final String PREFIX = "/a2a/";

    private final Vertx vertx;
    private final HttpClientAgent client;
    private final AgentRegistry registry;
    private final HeaderPolicy headerPolicy;
    private final CallerAuth auth;
    private final GatewayMetrics metrics;
    private final GatewaySettings settings;

    public GatewayHandler(Vertx vertx, HttpClientAgent client, AgentRegistry registry, HeaderPolicy headerPolicy,
            CallerAuth auth, GatewayMetrics metrics, GatewaySettings settings) {
        this.vertx = vertx;
        this.client = client;
        this.registry = registry;
        this.headerPolicy = headerPolicy;
        this.auth = auth;
        this.metrics = metrics;
        this.settings = settings;
    }

    @Override
    public void handle(RoutingContext ctx) {
        handle(ctx.request(), ctx.pathParam("agentId"));
    }

    /**
     * The hot path: {@code POST /a2a/{agentId}} taken before the router, which would otherwise match
     * every route and build a routing context for each call. Returns false for anything else.
     */
    public boolean tryHandle(HttpServerRequest request) {
        String path = request.path();
        if (request.method() != HttpMethod.POST || path == null || !path.startsWith(PREFIX) || path.length() == PREFIX.length()) {
            return false;
        }
        String agentId = path.substring(PREFIX.length());
        if (agentId.indexOf('/') >= 0 || agentId.indexOf('%') >= 0) {
            return false; // the router decodes and answers odd paths
        }
        handle(request, agentId);
        return true;
    }

    private void handle(HttpServerRequest request, String agentId) {
        long started = System.nanoTime();
        Optional<String> caller = auth.callerId(request);
        if (caller.isEmpty()) {
            metrics.record("unknown", null, GatewayMetrics.Outcome.UNAUTHORIZED, -1);
            request.response()
                    .setStatusCode(401)
                    .putHeader("WWW-Authenticate", "Bearer")
                    .putHeader("Content-Type", "application/json")
                    .end(GatewayErrors.body(new GatewayException(null, JsonRpcError.INVALID_REQUEST,
                            "unauthorized: send a valid API key as Authorization: Bearer <key>",
                            GatewayException.Kind.REQUEST)));
            return;
        }
        readBody(request, body -> dispatch(request, agentId, caller.get(), body, started));
    }

    private void dispatch(HttpServerRequest request, String agentId, String callerId, Buffer body, long started) {
        RoutingFields fields = null;
        try {
            if (!isJson(request.getHeader("Content-Type"))) {
                throw new GatewayException(null, JsonRpcError.PARSE_ERROR,
                        "parse error: Content-Type must be application/json, got "
                                + Optional.ofNullable(request.getHeader("Content-Type")).orElse("none"),
                        GatewayException.Kind.REQUEST);
            }
            fields = RoutingFields.parse(body.getBytes());
            if (!AgentIds.isValid(agentId)) {
                throw new GatewayException(fields.id(), JsonRpcError.INVALID_REQUEST,
                        "invalid request: malformed agent id '" + agentId + "': " + AgentIds.rule(),
                        GatewayException.Kind.REQUEST);
            }
            JsonNode id = fields.id();
            RegisteredAgent agent = registry.find(agentId).orElseThrow(() -> new GatewayException(id,
                    GatewayErrorCodes.AGENT_NOT_FOUND, "agent not found: " + agentId,
                    GatewayException.Kind.TRANSPORT_FINAL));
            metrics.watchInFlight(agent.id());
            ConcurrencyLimiter limiter = registry.limiter(agent.id());
            ConcurrencyLimiter.Permit permit = limiter.tryAcquire(agent.limits().maxConcurrency());
            if (permit == null) {
                metrics.record(agent.id(), fields.method(), GatewayMetrics.Outcome.BUSY, -1);
                respondError(request.response(), new GatewayException(id, JsonRpcError.INTERNAL_ERROR,
                        "server busy: " + agent.id() + " has " + limiter.inFlight() + " calls in flight",
                        GatewayException.Kind.TRANSPORT_RETRYABLE), 503, true);
                return;
            }
            new GatewayCall(vertx, client, request, agent, fields, body, permit,
                    headerPolicy.outbound(request.headers(), callerId, agent.headers()),
                    metrics, settings, started).start();
        } catch (GatewayException e) {
            String label = e.code() == GatewayErrorCodes.AGENT_NOT_FOUND || fields == null ? "unknown" : agentId;
            GatewayMetrics.Outcome outcome = e.code() == GatewayErrorCodes.AGENT_NOT_FOUND
                    ? GatewayMetrics.Outcome.NOT_FOUND : GatewayMetrics.Outcome.INVALID_REQUEST;
            metrics.record(registry.find(agentId).isPresent() ? agentId : label,
                    fields == null ? null : fields.method(), outcome, -1);
            respondError(request.response(), e, 200, false);
        }
    }

    /** Collects the body up to the limit; over it, answers -32600 and closes the connection. */
    private void readBody(HttpServerRequest request, Handler<Buffer> then) {
        long limit = settings.maxRequestBytes();
        String declared = request.getHeader("Content-Length");
        if (declared != null && parseLong(declared) > limit) {
            tooLarge(request, limit);
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] failed = {false};
        request.handler(chunk -> {
            if (failed[0]) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                failed[0] = true;
                tooLarge(request, limit);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(v -> {
            if (!failed[0]) {
                then.handle(body);
            }
        });
        request.exceptionHandler(e -> failed[0] = true);
        request.resume();
    }

    private void tooLarge(HttpServerRequest request, long limit) {
        metrics.record("unknown", null, GatewayMetrics.Outcome.INVALID_REQUEST, -1);
        HttpServerResponse response = request.response();
        if (!response.ended()) {
            response.setStatusCode(413).putHeader("Connection", "close");
            respondError(response, new GatewayException(null, JsonRpcError.INVALID_REQUEST,
                    "invalid request: body larger than " + limit + " bytes", GatewayException.Kind.REQUEST), 413, false);
        }
    }

    /** {@code POST /a2a} without an agent id. */
    public static void missingAgentId(RoutingContext ctx) {
        respondError(ctx.response(), new GatewayException(null, JsonRpcError.INVALID_REQUEST,
                "invalid request: missing agent id: POST to /a2a/{agentId}", GatewayException.Kind.REQUEST), 200, false);
    }

    static void respondError(HttpServerResponse response, GatewayException e, int status, boolean retryAfter) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).putHeader("Content-Type", "application/json");
        if (retryAfter) {
            response.putHeader("Retry-After", "1");
        }
        response.end(GatewayErrors.body(e));
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
