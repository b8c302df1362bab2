package dev.switchboard.registry;

import static dev.switchboard.http.JsonHttp.error;
import static dev.switchboard.http.JsonHttp.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.auth.Caller;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.auth.Unauthorized;
import dev.switchboard.http.JsonHttp;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * G9: the registry API at KubeMQ's paths. Writes need the admin token when one is configured;
 * reads need an API key (or the admin token) when keys are configured. Store calls run on worker
 * threads. Errors are HTTP 400 (404 for unknown agents, KubeMQ's 400 for an unknown heartbeat, 429 for
 * a new registration over {@code registry.maxRegistrations}) with {@code {"error": "...", "field": "..."}}.
 */
public final class RegistryRoutes {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryRoutes.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final int MAX_BODY = 256 * 1024;

    private final Vertx vertx;
    private final AgentRegistry registry;
    private final String adminToken;
    private final CallerAuth callers;
    private final Clock clock;
    private final Runnable onChange;
    private final EgressPolicy egress;
    /** {@code GET /agents} answers a bare JSON array, as KubeMQ's older clients read it ({@code compat: kubemq}). */
    private boolean bareList;
    private Function<Caller, Predicate<RegisteredAgent>> visible = caller -> a -> true;

    public RegistryRoutes(Vertx vertx, AgentRegistry registry, EgressPolicy egress, String adminToken,
            CallerAuth callers, Clock clock, Runnable onChange) {
        this.egress = egress;
        this.vertx = vertx;
        this.registry = registry;
        this.adminToken = adminToken;
        this.callers = callers;
        this.clock = clock;
        this.onChange = onChange;
    }

    /**
     * Which agents a caller may see (the AccessPolicies': those it may call); the admin token sees them all. Asked at
     * each read, so a reload of the policies shows at the next one.
     */
    public RegistryRoutes visibleTo(Function<Caller, Predicate<RegisteredAgent>> visible) {
        this.visible = visible;
        return this;
    }

    /** {@code GET /agents} as a bare array instead of {@code {"agents": [...], "count": n}}. */
    public RegistryRoutes bareList(boolean bare) {
        this.bareList = bare;
        return this;
    }

    // the handlers of the registry's paths (app/Routes lists them); a POST's body is read before them

    public void register(RoutingContext ctx) {
        if (!admin(ctx)) {
            return;
        }
        JsonNode body = jsonBody(ctx);
        if (body == null) {
            return;
        }
        RegisteredAgent requested;
        try {
            requested = RegistrationRequest.parse(body, clock.instant(), egress);
        } catch (RegistrationRequest.Invalid e) {
            error(ctx.response(), 400, e.getMessage(), e.field);
            return;
        }
        blocking(ctx, () -> registry.register(requested, clock.instant()), agent -> {
            onChange.run();
            json(ctx.response(), 200, view(agent));
        });
    }

    public void heartbeat(RoutingContext ctx) {
        if (!admin(ctx)) {
            return;
        }
        JsonNode body = jsonBody(ctx);
        if (body == null) {
            return;
        }
        String id;
        try {
            id = RegistrationRequest.agentIdOf(body);
        } catch (RegistrationRequest.Invalid e) {
            error(ctx.response(), 400, e.getMessage(), e.field);
            return;
        }
        blocking(ctx, () -> registry.heartbeat(id, clock.instant()), seen -> {
            if (seen.isEmpty()) {
                // KubeMQ answers an unknown heartbeat with 400, not 404
                error(ctx.response(), 400, "agent not found: " + id, "agent_id");
                return;
            }
            ObjectNode out = JSON.createObjectNode();
            out.put("agent_id", id);
            out.put("last_seen", seen.get().lastSeen().toString());
            json(ctx.response(), 200, out);
        });
    }

    public void deregisterByBody(RoutingContext ctx) {
        if (!admin(ctx)) {
            return;
        }
        JsonNode body = jsonBody(ctx);
        if (body == null) {
            return;
        }
        try {
            deregister(ctx, RegistrationRequest.agentIdOf(body));
        } catch (RegistrationRequest.Invalid e) {
            error(ctx.response(), 400, e.getMessage(), e.field);
        }
    }

    public void deregisterByPath(RoutingContext ctx) {
        if (admin(ctx)) {
            deregister(ctx, ctx.pathParam("agentId"));
        }
    }

    private void deregister(RoutingContext ctx, String id) {
        blocking(ctx, () -> registry.deregister(id), removed -> {
            if (!removed) {
                error(ctx.response(), 404, "agent not found: " + id, "agent_id");
                return;
            }
            onChange.run();
            ObjectNode out = JSON.createObjectNode();
            out.put("agent_id", id);
            out.put("deregistered", true);
            json(ctx.response(), 200, out);
        });
    }

    public void list(RoutingContext ctx) {
        asReader(ctx, visible -> listFor(ctx, visible));
    }

    private void listFor(RoutingContext ctx, Predicate<RegisteredAgent> visible) {
        String tagsParam;
        String limitParam;
        try {
            tagsParam = ctx.request().getParam("skill_tags");
            limitParam = ctx.request().getParam("limit");
        } catch (IllegalArgumentException e) { // a malformed %-escape in the query string
            error(ctx.response(), 400, "query: not a valid query string (malformed %-escape)", "query");
            return;
        }
        List<String> tags = tagsParam == null || tagsParam.isBlank() ? List.of()
                : Arrays.stream(tagsParam.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
        int limit = Integer.MAX_VALUE;
        if (limitParam != null) {
            try {
                limit = Integer.parseInt(limitParam);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1) {
                error(ctx.response(), 400, "limit: must be a whole number of at least 1, got '" + limitParam + "'", "limit");
                return;
            }
        }
        ArrayNode agents = JSON.createArrayNode();
        // filtered before the limit: a caller's first n agents are the first n it may call
        registry.list(tags, Integer.MAX_VALUE).stream().filter(visible).limit(limit).forEach(a -> agents.add(view(a)));
        if (bareList) {
            json(ctx.response(), 200, agents);
            return;
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("agents", agents);
        out.put("count", agents.size());
        json(ctx.response(), 200, out);
    }

    public void get(RoutingContext ctx) {
        asReader(ctx, visible -> getFor(ctx, visible));
    }

    private void getFor(RoutingContext ctx, Predicate<RegisteredAgent> visible) {
        String id = ctx.pathParam("agentId");
        registry.find(id).filter(visible).ifPresentOrElse(
                a -> json(ctx.response(), 200, view(a)),
                () -> error(ctx.response(), 404, "agent not found: " + id, "agent_id"));
    }

    /** The registration as the API shows it (never its static headers: they may hold credentials). */
    public static ObjectNode view(RegisteredAgent a) {
        ObjectNode n = JSON.createObjectNode();
        n.put("agent_id", a.id());
        n.put("name", a.name());
        n.put("url", a.url());
        n.put("description", a.description() == null ? "" : a.description());
        n.put("version", a.version() == null ? "" : a.version());
        ArrayNode skills = n.putArray("skills");
        a.skills().forEach(s -> {
            ObjectNode sk = skills.addObject();
            sk.put("id", s.id());
            sk.put("name", s.name());
            sk.put("description", s.description() == null ? "" : s.description());
            ArrayNode tags = sk.putArray("tags");
            s.tags().forEach(tags::add);
        });
        n.set("defaultInputModes", JSON.valueToTree(a.defaultInputModes()));
        n.set("defaultOutputModes", JSON.valueToTree(a.defaultOutputModes()));
        n.set("protocolVersions", JSON.valueToTree(a.protocolVersions()));
        n.put("source", a.origin() == AgentOrigin.CONFIG ? "config" : "dynamic");
        n.put("registered_at", a.registeredAt().toString());
        n.put("last_seen", a.lastSeen().toString());
        return n;
    }

    // ---- plumbing ----

    private boolean admin(RoutingContext ctx) {
        if (adminToken == null) {
            return true;
        }
        if (tokenMatches(ctx, adminToken)) {
            return true;
        }
        ctx.response().putHeader("WWW-Authenticate", "Bearer");
        error(ctx.response(), 401, "unauthorized: registry writes need the admin token as Authorization: Bearer <token>", null);
        return false;
    }

    /**
     * Runs {@code then} for a registry reader (a caller, or the admin token) with what it may see; answers 401 to anyone
     * else. The admin token sees every agent; a caller, with no AccessPolicy every agent, else those a policy grants it
     * (an agent it may not call is "not found" to it, as to anyone without a grant).
     */
    private void asReader(RoutingContext ctx, Consumer<Predicate<RegisteredAgent>> then) {
        if (adminToken != null && tokenMatches(ctx, adminToken)) {
            then.accept(a -> true);
            return;
        }
        callers.authenticate(ctx.request()).onComplete(known -> {
            if (known.succeeded()) {
                then.accept(visible.apply(known.result()));
                return;
            }
            ctx.response().putHeader("WWW-Authenticate",
                    known.cause() instanceof Unauthorized u ? u.challenge() : "Bearer");
            error(ctx.response(), 401, known.cause() instanceof Unauthorized u ? u.getMessage()
                    : "unauthorized: send an API key or a token as Authorization: Bearer <key>", null);
        });
    }

    private static boolean tokenMatches(RoutingContext ctx, String expected) {
        String presented = CallerAuth.bearer(ctx.request().getHeader("Authorization"));
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                expected.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode jsonBody(RoutingContext ctx) {
        return JsonHttp.body(ctx, "body: a JSON object is required");
    }

    private <T> void blocking(RoutingContext ctx, Callable<T> work, Consumer<T> then) {
        JsonHttp.blocking(vertx, work, then, failure -> {
            if (failure instanceof AgentRegistry.RegistryFull full) {
                ObjectNode n = JsonHttp.errorBody(full.getMessage(), "agent_id");
                n.put("limit", full.limit());
                json(ctx.response(), 429, n);
            } else if (failure instanceof IllegalStateException conflict) {
                error(ctx.response(), 409, conflict.getMessage(), "agent_id");
            } else {
                LOG.info("registry store failed: {}", failure.toString());
                error(ctx.response(), 500, "the registry store failed; the change was not made", null);
            }
        });
    }
}
