package dev.switchboard.mcp;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.auth.Caller;
import dev.switchboard.auth.Unauthorized;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.gateway.CrossSiteRequest;
import dev.switchboard.gateway.Egress;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.tracing.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The third door (issue 25): every registered agent reachable as MCP tools at {@code /mcp}, over MCP's Streamable
 * HTTP transport ({@link StreamableHttp}) and the official MCP Java SDK's server. Same credentials as the gateway
 * (G11), checked before a body is read; the calls go through {@link AgentCalls} under the gateway's limits. The
 * registry's changes (registrations, deregistrations, expiry, the configuration and watch mode) reach every session as
 * {@code notifications/tools/list_changed}, gathered into one per {@link #NOTIFY_AFTER_MS} burst.
 */
public final class McpDoor {

    private static final Logger LOG = LoggerFactory.getLogger(McpDoor.class);
    static final long NOTIFY_AFTER_MS = 100;
    private static final Duration KEEPALIVE = Duration.ofSeconds(15);

    private final Vertx vertx;
    private final CallerAuth auth;
    private final McpSettings settings;
    private final StreamableHttp transport;
    private final McpAsyncServer server;
    private final AgentTools tools;
    private final AgentCalls calls;
    private final McpMetrics metrics;
    private final A2aAgentClient client;
    private final Set<String> skillTools = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private boolean notifyScheduled;

    private McpDoor(Vertx vertx, AgentRegistry registry, CallerAuth auth, McpAccess access, McpSettings settings,
            Egress egress, String callerIdHeader, Tracing tracing, MeterRegistry meters, String version,
            Duration responseHeadersTimeout) {
        this.vertx = vertx;
        this.auth = auth;
        this.settings = settings;
        ObjectMapper mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        McpJsonMapper json = new JacksonMcpJsonMapper(mapper);
        this.transport = new StreamableHttp(vertx, json, settings.maxSessions(), settings.sessionIdleTimeout(), KEEPALIVE);
        this.metrics = new McpMetrics(meters, transport::sessionCount);
        this.client = new A2aAgentClient(vertx, responseHeadersTimeout);
        this.calls = new AgentCalls(vertx, client, registry, egress, callerIdHeader, tracing, metrics);
        this.tools = new AgentTools(registry, access, calls, settings, metrics);
        this.server = McpServer.async(transport)
                .serverInfo("switchboard", version)
                .instructions("Switchboard's registered A2A agents. list_agents names them; send_message talks to one. "
                        + "An answer in state input-required is a question: answer it with send_message and its taskId.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .jsonMapper(json)
                .jsonSchemaValidator(NO_OUTPUT_SCHEMAS)
                .requestTimeout(Duration.ofMinutes(5))
                .tools(tools.fixed())
                .addToolFilter((context, tool) -> {
                    String agentId = AgentTools.agentOf(tool.name());
                    if (agentId == null) {
                        return Mono.just(true);
                    }
                    Caller caller = context == null ? null : (Caller) context.get(StreamableHttp.CALLER);
                    RegisteredAgent a = registry.find(agentId).orElse(null);
                    return Mono.just(caller != null && a != null && access.mayUse(caller, a));
                })
                .build();
        Set<String> fixedNames = Set.of(AgentTools.LIST_AGENTS, AgentTools.SEND_MESSAGE, AgentTools.GET_TASK,
                AgentTools.CANCEL_TASK);
        transport.knownTools(name -> fixedNames.contains(name) || skillTools.contains(name));
        registry.onAnyChange(this::changed);
        registry.onRemoved(metrics::forget);
        if (settings.toolsPerSkill()) {
            syncSkillTools();
        }
    }

    /**
     * Tools declare no output schema, so the server has no structured output to check; the SDK's validator would
     * bring a JSON Schema library into the production jar for nothing.
     */
    private static final JsonSchemaValidator NO_OUTPUT_SCHEMAS = (schema, content) ->
            JsonSchemaValidator.ValidationResponse.asValid(null);

    public static McpDoor create(Vertx vertx, AgentRegistry registry, CallerAuth auth, McpAccess access,
            McpSettings settings, Egress egress, String callerIdHeader, Tracing tracing, MeterRegistry meters,
            String version, Duration responseHeadersTimeout) {
        return new McpDoor(vertx, registry, auth, access, settings, egress, callerIdHeader, tracing, meters, version,
                responseHeadersTimeout);
    }

    /** The largest body {@code POST /mcp} reads (for the router's body budget). */
    public long maxBodyBytes() {
        return settings.maxBodyBytes();
    }

    // ---- the routes ----

    /** Before any body is read: a page of another site is refused (403), an unknown caller too (401). */
    public void guard(RoutingContext ctx) {
        String crossSite = CrossSiteRequest.refusal(ctx.request());
        if (crossSite != null) {
            McpErrors.http(ctx.response(), 403, null, McpSchema.ErrorCodes.INVALID_REQUEST, crossSite);
            return;
        }
        if (ctx.request().method() == io.vertx.core.http.HttpMethod.POST
                && !dev.switchboard.gateway.JsonContentType.is(ctx.request().getHeader("Content-Type"))) {
            // before the body handler: a form's body would be decoded as one, with the query string (which may not
            // decode: a hang, found by the fuzzer); MCP's messages are JSON
            ctx.response().putHeader("Connection", "close");
            McpErrors.http(ctx.response(), 415, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Content-Type must be application/json");
            return;
        }
        io.vertx.core.Future<Caller> caller = auth.authenticate(ctx.request());
        if (caller.isComplete()) {
            admit(ctx, caller);
            return;
        }
        // a token whose issuer's keys are being fetched again: go on on this request's own context when they are
        ctx.request().pause();
        io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
        caller.onComplete(done -> context.runOnContext(v -> admit(ctx, caller)));
    }

    private static void admit(RoutingContext ctx, io.vertx.core.Future<Caller> caller) {
        if (caller.failed()) {
            ctx.response().putHeader("WWW-Authenticate",
                    caller.cause() instanceof Unauthorized u ? u.challenge() : "Bearer");
            McpErrors.http(ctx.response(), 401, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                    caller.cause() instanceof Unauthorized u ? u.getMessage()
                            : "unauthorized: send a valid API key or token as Authorization: Bearer <key>");
            return;
        }
        ctx.put(StreamableHttp.CALLER, caller.result());
        ctx.next();
    }

    public void post(RoutingContext ctx) {
        transport.post(ctx, ctx.get(StreamableHttp.CALLER));
    }

    public void get(RoutingContext ctx) {
        transport.get(ctx, ctx.get(StreamableHttp.CALLER));
    }

    public void delete(RoutingContext ctx) {
        transport.delete(ctx, ctx.get(StreamableHttp.CALLER));
    }

    /** Any other method at {@code /mcp}. */
    public static void wrongMethod(RoutingContext ctx) {
        ctx.response().putHeader("Allow", "GET, POST, DELETE");
        McpErrors.http(ctx.response(), 405, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                "method not allowed: /mcp takes POST (messages), GET (the listening stream) and DELETE (end a session)");
    }

    /** A body over {@link #maxBodyBytes()} or a route failure: never a 5xx for what a client sent. */
    public void failed(RoutingContext ctx) {
        int status = ctx.statusCode() == 413 ? 413 : ctx.statusCode() >= 400 && ctx.statusCode() < 500 ? ctx.statusCode() : 500;
        if (status == 500) {
            LOG.warn("MCP request failed: {}", ctx.failure() == null ? "?" : ctx.failure().toString());
        }
        McpErrors.http(ctx.response(), status, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                status == 413 ? "body: larger than " + settings.maxBodyBytes() + " bytes" : "request failed");
    }

    // ---- the registry's changes ----

    private void changed(String agentId) {
        calls.forget(agentId);
        vertx.runOnContext(v -> {
            if (notifyScheduled) {
                return;
            }
            notifyScheduled = true;
            vertx.setTimer(NOTIFY_AFTER_MS, t -> {
                notifyScheduled = false;
                if (settings.toolsPerSkill()) {
                    syncSkillTools();
                }
                server.notifyToolsListChanged().subscribe(x -> {}, e -> LOG.debug("tools/list_changed: {}", e.toString()));
            });
        });
    }

    /**
     * Adds and removes per-skill tools to match the registry (the SDK's addTool/removeTool), one change after the
     * other, never blocking: the SDK notifies the sessions of each, through this event loop.
     */
    private void syncSkillTools() {
        Map<String, McpServerFeatures.AsyncToolSpecification> wanted = tools.perSkill();
        Set<String> had = Set.copyOf(skillTools);
        skillTools.clear();
        skillTools.addAll(wanted.keySet());
        // removed and added again on any change: a skill's description may have changed under the same name
        reactor.core.publisher.Flux.fromIterable(had)
                .concatMap(name -> server.removeTool(name).onErrorResume(e -> Mono.empty()))
                .thenMany(reactor.core.publisher.Flux.fromIterable(wanted.values())
                        .concatMap(spec -> server.addTool(spec).onErrorResume(e -> Mono.empty())))
                .subscribe(x -> {}, e -> LOG.debug("per-skill tools: {}", e.toString()));
    }

    public Future<Void> close() {
        return Future.fromCompletionStage(server.closeGracefully().onErrorResume(e -> Mono.empty()).toFuture())
                .eventually(client::close);
    }
}
