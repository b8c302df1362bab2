package dev.switchboard.app;

import dev.switchboard.chat.slack.SlackRoutes;
import dev.switchboard.chat.web.WebChatRoutes;
import dev.switchboard.console.ConsoleRoutes;
import dev.switchboard.gateway.CardRoutes;
import dev.switchboard.gateway.GatewayHandler;
import dev.switchboard.gateway.GatewayReplies;
import dev.switchboard.mcp.McpDoor;
import dev.switchboard.http.JsonHttp;
import dev.switchboard.ops.HealthRoutes;
import dev.switchboard.ops.MetricsAccess;
import dev.switchboard.ops.MetricsRoutes;
import dev.switchboard.ops.Readiness;
import dev.switchboard.registry.RegistryRoutes;
import dev.switchboard.trigger.TriggerRoutes;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The server's surface: every path each listener serves, with its method, its handlers and its place in the order the
 * router tries them (first match wins; a handler that calls {@code next()} hands on to the next match).
 *
 * <p>A request on the main port meets, in this order: {@link HostCheck} (421 for a Host not ours, before anything
 * else sees it: DNS rebinding); {@link InFlight} (503 once a shutdown began); then the {@linkplain #GATEWAY gateway's
 * bypass}: {@code POST /a2a/{agentId}} and {@code GET /a2a/{agentId}/stream} go straight to {@link GatewayHandler}
 * without a routing context, for speed, and it budgets their bodies itself; everything else has its body counted by
 * {@link RequestBodies} before a byte is read, then goes through {@link #main} top to bottom. The router's own
 * refusals (a malformed path, a missing Host) are answered by {@link RouterErrors}. While the store is still opening
 * the port serves {@link #starting} instead; {@code Server.spec.ops.listen}'s port serves {@link #ops}.
 */
final class Routes {

    /**
     * One row of the table.
     *
     * @param method the method it takes; null: any
     * @param path Vert.x's path pattern ({@code :param}, a trailing {@code *} for a prefix); null: any path
     * @param failure its handlers answer a failure under the path instead of a request
     */
    record Route(HttpMethod method, String path, boolean failure, List<Handler<RoutingContext>> handlers) {}

    /** A path the gateway takes before the router ({@link GatewayHandler#tryHandle}); the router has it too, for escaped ids. */
    record Bypass(HttpMethod method, String path) {}

    static final List<Bypass> GATEWAY = List.of(
            new Bypass(HttpMethod.POST, "/a2a/:agentId"),
            new Bypass(HttpMethod.GET, "/a2a/:agentId/stream"));

    /** What the main port's table routes to, built by {@link SwitchboardApp}. */
    record Features(Readiness readiness, PrometheusMeterRegistry meters, MetricsAccess metrics, RegistryRoutes registry,
            CardRoutes cards, GatewayHandler gateway, WebChatRoutes web, SlackRoutes slack, TriggerRoutes triggers,
            McpDoor mcp, ConsoleRoutes console) {}

    private Routes() {}

    /** The main port, once the app serves. {@code slack} is null unless a SlackApp is in events mode. */
    static List<Route> main(Features f) {
        Table t = new Table();
        probes(t, f.readiness(), f.meters(), f.metrics());

        Handler<RoutingContext> registryBody = JsonHttp.bodyOf(RegistryRoutes.MAX_BODY);
        t.post("/agents/register", registryBody, f.registry()::register);
        t.post("/agents/deregister", registryBody, f.registry()::deregisterByBody);
        t.post("/agents/heartbeat", registryBody, f.registry()::heartbeat);
        t.get("/agents", f.registry()::list);
        t.get("/agents/:agentId", f.registry()::get);
        t.delete("/agents/:agentId", f.registry()::deregisterByPath);

        t.get("/.well-known/agent-card.json", f.cards()::platformCard);
        t.get("/a2a/:agentId/.well-known/agent-card.json", f.cards()::agentCard);
        t.get("/.well-known/jwks.json", f.gateway().identity()::jwks);

        // what the bypass leaves to the router: ids with escapes, and every refusal of a wrong method or path
        t.post("/a2a/:agentId", f.gateway());
        t.get("/a2a/:agentId/stream", f.gateway()::handleStream);
        t.post("/a2a/:agentId/push/:callbackId", f.gateway()::pushCallback);
        t.any("/a2a/:agentId", GatewayReplies::wrongMethod);
        t.post("/a2a", GatewayReplies::missingAgentId);
        t.post("/a2a/", GatewayReplies::missingAgentId);

        if (f.mcp() != null) {
            // MCP's Streamable HTTP (issue 25): the guard (cross-site, caller) answers before the body is read
            McpDoor mcp = f.mcp();
            t.any("/mcp", mcp::guard);
            t.post("/mcp", JsonHttp.bodyOf(mcp.maxBodyBytes()), mcp::post);
            t.get("/mcp", mcp::get);
            t.delete("/mcp", mcp::delete);
            t.any("/mcp", McpDoor::wrongMethod);
            t.failure("/mcp", mcp::failed);
        }

        // the guard answers before a body is read; each POST's body handler comes after it
        Handler<RoutingContext> chatBody = JsonHttp.bodyOf(WebChatRoutes.MAX_BODY);
        WebChatRoutes web = f.web();
        t.any("/api/chat/*", WebChatRoutes::noFraming, web::guard);
        t.get("/api/chat/me", web::me);
        t.get("/api/chat/channels", web::channels);
        t.get("/api/chat/channels/:channel/threads", web::threads);
        t.post("/api/chat/channels/:channel/threads", chatBody, web::newThread);
        t.get("/api/chat/threads/:threadId", web::thread);
        t.post("/api/chat/threads/:threadId/messages", chatBody, web::newMessage);
        t.post("/api/chat/threads/:threadId/answers", chatBody, web::newAnswer);
        t.get("/api/chat/threads/:threadId/events", web::events);
        t.any("/api/chat/*", WebChatRoutes::noSuchPath);
        t.failure("/api/chat/*", WebChatRoutes::failed);

        if (f.slack() != null) {
            // the signature is checked on the raw bytes: no body handler of Vert.x's in front
            t.post("/slack/events", SlackRoutes::rawBody, f.slack()::events);
            t.post("/slack/interactions", SlackRoutes::rawBody, f.slack()::interactions);
        }

        // the guard (trigger, token, rate) answers before the body is read, then hands on to the delivery
        t.post("/triggers/:name", f.triggers()::guard);
        t.post("/triggers/:name", JsonHttp.bodyOf(TriggerRoutes.MAX_BODY), f.triggers()::deliver);
        t.any("/triggers/:name", TriggerRoutes::wrongMethod);
        t.failure("/triggers/*", TriggerRoutes::failed);

        // the operator's console (issue 27): its API asks what /metrics asks; its page, like the chat's, holds no data
        ConsoleRoutes console = f.console();
        t.any("/console/api/*", console::guard);
        t.get("/console/api/agents", console::agents);
        t.get("/console/api/agents/:agentId", console::agent);
        t.get("/console/api/bridge", console::bridge);
        t.get("/console/api/resources", console::resources);
        t.any("/console/api/*", ConsoleRoutes::noSuchPath);
        t.get("/console", ConsoleRoutes::redirect);
        t.get("/console/*", WebChatRoutes::noFraming, ConsoleRoutes.page());

        // the page answers any GET the routes above did not take, and hands on a path it has no file for
        t.get("/*", WebChatRoutes::noFraming, WebChatRoutes.page());
        t.failure(null, RouterErrors::answer);
        return t.rows();
    }

    /** {@code Server.spec.ops.listen}: the probes and the metrics, open to whoever reaches that address. */
    static List<Route> ops(Readiness readiness, PrometheusMeterRegistry meters) {
        Table t = new Table();
        probes(t, readiness, meters, MetricsAccess.OPEN);
        t.failure(null, RouterErrors::answer);
        return t.rows();
    }

    /** The main port while the store opens: the probes and the metrics answer, anything else is 503 "starting". */
    static List<Route> starting(Readiness readiness, PrometheusMeterRegistry meters, MetricsAccess metrics) {
        Table t = new Table();
        probes(t, readiness, meters, metrics);
        t.any(null, ctx -> ctx.response().setStatusCode(503).putHeader("Retry-After", "1")
                .putHeader("Content-Type", "application/json")
                .end("{\"error\":\"starting: not ready yet (see /readyz)\"}"));
        return t.rows();
    }

    private static void probes(Table t, Readiness readiness, PrometheusMeterRegistry meters, MetricsAccess metrics) {
        t.get("/healthz", HealthRoutes::healthz);
        t.get("/readyz", HealthRoutes.readyz(readiness));
        t.get("/metrics", MetricsRoutes.handler(meters, metrics));
    }

    /** The main port's bypass: true when the gateway took the request. */
    static Predicate<HttpServerRequest> bypass(GatewayHandler gateway) {
        return gateway::tryHandle;
    }

    /** A router serving {@code routes} in their order, Vert.x's own refusals answered as {@link RouterErrors} does. */
    static Router router(Vertx vertx, List<Route> routes) {
        Router router = Router.router(vertx);
        RouterErrors.mount(router);
        for (Route r : routes) {
            io.vertx.ext.web.Route route = r.path() == null ? router.route() : router.route(r.path());
            if (r.method() != null) {
                route.method(r.method());
            }
            for (Handler<RoutingContext> h : r.handlers()) {
                if (r.failure()) {
                    route.failureHandler(h);
                } else {
                    route.handler(h);
                }
            }
        }
        return router;
    }

    /** Rows in the order they are added: the order the router tries them. */
    private static final class Table {
        private final List<Route> rows = new ArrayList<>();

        @SafeVarargs
        final void get(String path, Handler<RoutingContext>... handlers) {
            add(HttpMethod.GET, path, false, handlers);
        }

        @SafeVarargs
        final void post(String path, Handler<RoutingContext>... handlers) {
            add(HttpMethod.POST, path, false, handlers);
        }

        @SafeVarargs
        final void delete(String path, Handler<RoutingContext>... handlers) {
            add(HttpMethod.DELETE, path, false, handlers);
        }

        @SafeVarargs
        final void any(String path, Handler<RoutingContext>... handlers) {
            add(null, path, false, handlers);
        }

        void failure(String path, Handler<RoutingContext> handler) {
            rows.add(new Route(null, path, true, List.of(handler)));
        }

        private void add(HttpMethod method, String path, boolean failure, Handler<RoutingContext>[] handlers) {
            rows.add(new Route(method, path, failure, List.of(handlers)));
        }

        List<Route> rows() {
            return List.copyOf(rows);
        }
    }
}
