package dev.switchboard.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.check.CardFindings;
import dev.switchboard.check.RowResult;
import dev.switchboard.gateway.CardRoutes;
import dev.switchboard.net.Addresses;
import dev.switchboard.ops.MetricsAccess;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.Handler;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /console}: the page, and its JSON API under {@code /console/api/}. The API shows what {@code /metrics} shows
 * and more (agents' URLs, cards, traffic), so it asks what {@code /metrics} asks on the main port
 * ({@link MetricsAccess}): nothing on a loopback-only server; beyond loopback the admin token as a bearer token, from
 * every caller; with no admin token (an insecure server), callers on this machine only. Beyond that, a caller with the
 * {@code admin} grant of an AccessPolicy ({@link ConsoleAccess}). The page itself holds no data and is served to
 * anyone, like the web chat's. Agents' static headers (their credentials) are never shown.
 */
public final class ConsoleRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Turns counted by state over this window: the bridge's recent work, not its whole history. */
    static final Duration TURNS_WINDOW = Duration.ofHours(24);

    private final AgentRegistry registry;
    private final CardRoutes cards;
    private final CardProbe probe;
    private final RollingCalls calls;
    private final ChatStore store;
    private final ConsoleAccess access;
    private volatile boolean cluster;
    private final Clock clock;
    private volatile Map<String, String> dialects = Map.of();
    private volatile java.util.function.Supplier<java.util.List<ResourceStatus>> statuses;

    /**
     * @param auth the gateway's callers, for those with an admin grant
     * @param grants the AccessPolicies in force now (watch mode swaps them)
     */
    public ConsoleRoutes(AgentRegistry registry, CardRoutes cards, CardProbe probe, RollingCalls calls, ChatStore store,
            MetricsAccess access, dev.switchboard.auth.CallerAuth auth,
            java.util.function.Supplier<dev.switchboard.policy.Grants> grants, Clock clock) {
        this.registry = registry;
        this.cards = cards;
        this.probe = probe;
        this.calls = calls;
        this.store = store;
        this.access = new ConsoleAccess(access, auth, grants);
        this.clock = clock;
    }

    /**
     * The configured agents' dialects ({@code a2a}, {@code kagent-v1}) by id, as the configuration is now;
     * {@code cluster}: they come from the cluster's resources (watch mode applies them) rather than the file.
     */
    public void dialects(Map<String, String> byAgent, boolean cluster) {
        this.dialects = Map.copyOf(byAgent);
        this.cluster = cluster;
    }

    /** Watch mode: where the resources' Ready conditions are read. */
    public void resourceStatuses(java.util.function.Supplier<java.util.List<ResourceStatus>> source) {
        this.statuses = source;
    }

    /** {@code GET /console/api/resources}: watch mode's resources and their Ready conditions; none outside it. */
    public void resources(RoutingContext ctx) {
        var source = statuses;
        ObjectNode out = JSON.createObjectNode();
        out.put("watchMode", source != null);
        out.set("resources", JSON.valueToTree(source == null ? java.util.List.of() : source.get()));
        send(ctx, 200, out);
    }

    /** An agent removed from the registry: its rolling figures go with it. */
    public void forget(String agentId) {
        calls.forget(agentId);
    }

    public void close() {
        probe.close();
    }

    /** {@code GET /console}: to {@code /console/}, where the page's relative imports resolve. */
    public static void redirect(RoutingContext ctx) {
        if (!ctx.request().path().equals("/console")) {
            ctx.next(); // the router takes /console/ for /console too: the page's own route answers it
            return;
        }
        ctx.response().setStatusCode(302).putHeader("Location", "/console/").end();
    }

    public static Handler<RoutingContext> page() {
        return StaticHandler.create("console").setIndexPage("index.html").setCachingEnabled(false);
    }

    /** Who may read the API: as {@code /metrics} on the main port, or a caller with an admin grant. */
    public void guard(RoutingContext ctx) {
        ctx.response().putHeader("Cache-Control", "no-store");
        access.check(remote(ctx), ctx.request()).onComplete(done -> {
            ConsoleAccess.Answer answer = done.succeeded() ? done.result()
                    : new ConsoleAccess.Answer(503, "the caller could not be checked now", null);
            if (answer.served()) {
                probe.touch(); // the probe runs while the console is in use
                ctx.next();
                return;
            }
            if (answer.challenge() != null) {
                ctx.response().putHeader("WWW-Authenticate", answer.challenge());
            }
            error(ctx, answer.status(), answer.message());
        });
    }

    /** {@code GET /console/api/agents}: every agent, with its last probe. */
    public void agents(RoutingContext ctx) {
        ObjectNode out = JSON.createObjectNode();
        out.put("probeIntervalSeconds", probe.interval().toMillis() / 1000.0);
        ArrayNode list = out.putArray("agents");
        for (RegisteredAgent a : registry.list(java.util.List.of(), Integer.MAX_VALUE)) {
            list.add(summary(a));
        }
        send(ctx, 200, out);
    }

    /** {@code GET /console/api/agents/:agentId}: one agent, its cards, limits and last hour. */
    public void agent(RoutingContext ctx) {
        String id = ctx.pathParam("agentId");
        RegisteredAgent a = registry.find(id).orElse(null);
        if (a == null) {
            error(ctx, 404, "no agent named " + id.replaceAll("[^A-Za-z0-9._-]", "?"));
            return;
        }
        ObjectNode out = summary(a);
        out.put("description", a.description());
        out.set("limits", JSON.valueToTree(a.limits()));
        out.set("protocolVersions", JSON.valueToTree(a.protocolVersions()));
        CardProbe.Result last = probe.last(id).orElse(null);
        if (last != null && last.card() != null) {
            out.set("cardFetched", last.card());
            out.set("cardRewritten", cards.rewritten(last.card(), ctx.request(), id));
            ArrayNode findings = out.putArray("cardFindings");
            for (RowResult r : CardFindings.of(last.card(), Dialect.fromConfig(dialects.getOrDefault(id, "a2a")), a.url())) {
                findings.addObject().put("row", r.row().id()).put("verdict", r.verdict().name()).put("reason", r.reason());
            }
        }
        ArrayNode minutes = out.putArray("lastHour");
        for (RollingCalls.Minute m : calls.lastHour(id)) {
            ObjectNode n = minutes.addObject();
            n.put("start", Instant.ofEpochMilli(m.startMillis()).toString());
            n.put("requests", m.requests());
            n.put("errors", m.errors());
            if (m.p50Ms() != null) {
                n.put("p50Ms", m.p50Ms());
                n.put("p99Ms", m.p99Ms());
            }
        }
        send(ctx, 200, out);
    }

    /** {@code GET /console/api/bridge}: sessions, and the turns of the last day by state. */
    public void bridge(RoutingContext ctx) {
        String since = clock.instant().minus(TURNS_WINDOW).toString();
        ctx.vertx().executeBlocking(() -> {
            ObjectNode out = JSON.createObjectNode();
            out.put("sessions", count("SELECT count(*) FROM bridge_session"));
            out.put("sessionsWithUnfinishedTurns", count("SELECT count(*) FROM bridge_session WHERE pending = 1"));
            out.put("turnsSince", since);
            ObjectNode byState = out.putObject("turnsByState");
            Map<String, Long> states = new LinkedHashMap<>();
            store.read("SELECT state, count(*) FROM chat_post WHERE kind = 'user' AND state IS NOT NULL "
                    + "AND created_at >= ? GROUP BY state ORDER BY state", rs -> {
                        states.put(rs.getString(1), rs.getLong(2));
                        return null;
                    }, since);
            states.forEach(byState::put);
            return out;
        }).onSuccess(out -> send(ctx, 200, out)).onFailure(e -> error(ctx, 503, "the store did not answer"));
    }

    /** Any other path under {@code /console/api/}. */
    public static void noSuchPath(RoutingContext ctx) {
        error(ctx, 404, "no such console API path");
    }

    private long count(String sql) {
        return store.read(sql, rs -> rs.getLong(1)).get(0);
    }

    private ObjectNode summary(RegisteredAgent a) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", a.id());
        n.put("name", a.name());
        boolean dynamic = a.origin() == AgentOrigin.DYNAMIC;
        n.put("origin", dynamic ? "api" : cluster ? "kubernetes" : "config");
        n.put("url", a.url());
        n.put("dialect", dialects.getOrDefault(a.id(), "a2a"));
        CardProbe.Result last = probe.last(a.id()).orElse(null);
        // a configured agent declares no version: its card does
        n.put("version", a.version() != null && !a.version().isBlank() ? a.version()
                : last != null && last.card() != null ? last.card().path("version").asText(null) : null);
        if (a.lastSeen() != null) {
            n.put("lastSeen", a.lastSeen().toString());
        }
        if (dynamic && a.lastSeen() != null) {
            long left = Duration.between(clock.instant(), a.lastSeen().plus(registry.ttl())).toSeconds();
            n.put("ttlLeftSeconds", Math.max(0, left));
        }
        n.put("inFlight", registry.limiter(a.id()).inFlight());
        n.put("maxConcurrency", a.limits().maxConcurrency());
        if (last == null) {
            n.putNull("reachable");
        } else {
            n.put("reachable", last.reachable());
            n.put("probedAt", last.checkedAt().toString());
            if (last.error() != null) {
                n.put("probeError", last.error());
            }
        }
        return n;
    }

    private static void send(RoutingContext ctx, int status, ObjectNode body) {
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.toString());
    }

    private static void error(RoutingContext ctx, int status, String message) {
        ObjectNode n = JSON.createObjectNode().put("error", message);
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(n.toString());
    }

    private static InetAddress remote(RoutingContext ctx) {
        SocketAddress peer = ctx.request().connection().remoteAddress();
        return peer == null || peer.hostAddress() == null ? null : Addresses.literal(peer.hostAddress()).orElse(null);
    }
}
