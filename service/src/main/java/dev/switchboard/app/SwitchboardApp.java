package dev.switchboard.app;

import dev.switchboard.auth.CallerAuth;
import dev.switchboard.gateway.CallerIdentity;
import dev.switchboard.gateway.CallerMetrics;
import dev.switchboard.policy.AccessControl;
import dev.switchboard.policy.CallerLimits;
import dev.switchboard.policy.Grants;
import dev.switchboard.bridge.AgentSkills;
import dev.switchboard.bridge.BridgeService;
import dev.switchboard.bridge.LiveBindings;
import dev.switchboard.bridge.Scheduler;
import dev.switchboard.chat.slack.SlackPlatform;
import dev.switchboard.chat.web.WebChatPlatform;
import dev.switchboard.chat.web.WebChatRoutes;
import dev.switchboard.config.Compat;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.console.ConsoleRoutes;
import dev.switchboard.console.ResourceStatus;
import dev.switchboard.gateway.CardRoutes;
import dev.switchboard.gateway.Egress;
import dev.switchboard.gateway.GatewayHandler;
import dev.switchboard.http.RequestBudget;
import dev.switchboard.gateway.GatewayMetrics;
import dev.switchboard.gateway.HeaderPolicy;
import dev.switchboard.mcp.McpDoor;
import dev.switchboard.mcp.McpSettings;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.gateway.AgentConnections;
import dev.switchboard.ops.MetricsAccess;
import dev.switchboard.ops.Readiness;
import dev.switchboard.ops.StandardMetrics;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.EgressPolicy;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.registry.RegistryRoutes;
import dev.switchboard.store.Database;
import dev.switchboard.store.RegistryNotifications;
import dev.switchboard.trigger.TriggerRoutes;
import dev.switchboard.trigger.Triggers;
import dev.switchboard.tracing.Tracing;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Switchboard: the store, the registry, the gateway and the ops endpoints on one HTTP
 * server (the metrics on a second one when {@code Server.spec.ops.listen} says so). {@code serve} and {@code demo}
 * both start one of these.
 */
public final class SwitchboardApp {

    private static final Logger LOG = LoggerFactory.getLogger(SwitchboardApp.class);

    private final Vertx vertx;
    private final Router router;
    private final OpenedStore store;
    private final AgentRegistry registry;
    private final PrometheusMeterRegistry meters;
    private final HttpClientAgent client;
    private final CardRoutes cards;
    private final BridgeService bridge;
    private final LiveBindings bindings;
    private final ConfiguredAgents configuredAgents;
    private final WebChatPlatform webChat;
    private final SlackPlatform slack;
    private final Readiness readiness;
    private Duration shutdownGrace = dev.switchboard.config.HttpLimits.DEFAULT_SHUTDOWN_GRACE_PERIOD;
    /** OpenTelemetry spans, or {@link Tracing#off()} (the default: nothing is made) */
    private final Tracing tracing;
    /** The gateway's clients, one per event loop. */
    private final AgentConnections upstream;
    /** {@link #apply} replaces what they run */
    private final Triggers triggers;
    /** The MCP door; null when Server.spec.mcp.enabled is false. */
    private McpDoor mcp;
    private ConsoleRoutes console;
    /** what the main port serves, in order */
    private List<Routes.Route> routes;
    private SwitchboardServer server;
    /** Server.spec.ops.listen's listener (/metrics and the probes); null when the metrics are on the main port */
    private SwitchboardServer opsServer;
    private long expiryTimer = -1;
    /** The AccessPolicies in force and the callers' limits; {@link #apply} swaps the policies */
    private AccessControl access;
    /** PostgreSQL: the registry's change notifications from the other replicas; null on SQLite. */
    private RegistryNotifications registryNotifications;

    private SwitchboardApp(Vertx vertx, Router router, OpenedStore store, PrometheusMeterRegistry meters,
            HttpClientAgent client, CardRoutes cards, BridgeService bridge, LiveBindings bindings, WebChatPlatform webChat,
            SlackPlatform slack, Readiness readiness, Tracing tracing, AgentConnections upstream,
            Triggers triggers, ConfiguredAgents configuredAgents) {
        this.vertx = vertx;
        this.router = router;
        this.store = store;
        this.registry = store.registry();
        this.meters = meters;
        this.client = client;
        this.cards = cards;
        this.bridge = bridge;
        this.bindings = bindings;
        this.webChat = webChat;
        this.slack = slack;
        this.readiness = readiness;
        this.tracing = tracing;
        this.upstream = upstream;
        this.triggers = triggers;
        this.configuredAgents = configuredAgents;
    }

    /**
     * The Vert.x instance a Switchboard process runs on: Netty's native epoll transport where it loads (Linux
     * x86-64; fewer copies and no JDK selector between the sockets and the gateway), NIO elsewhere.
     */
    public static Vertx newVertx() {
        Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        if (!vertx.isNativeTransportEnabled()) {
            LOG.info("native transport not available ({}): using NIO", vertx.unavailableNativeTransportCause() == null
                    ? "unknown reason" : vertx.unavailableNativeTransportCause().toString());
        }
        return vertx;
    }

    public static Future<SwitchboardApp> start(Vertx vertx, SwitchboardConfig config) {
        return start(vertx, config, new Readiness());
    }

    /**
     * Starts with a readiness the caller may already have added conditions to (watch mode's first sync):
     * {@code /readyz} answers 200 once those and the app's own (the store migrated) are met.
     */
    public static Future<SwitchboardApp> start(Vertx vertx, SwitchboardConfig config, Readiness readiness) {
        return start(vertx, config, readiness, Scheduler.vertx(vertx, Clock.systemUTC()));
    }

    /**
     * As above, the chat bridge's clock and timers those of {@code bridgeTime} (a test's virtual clock runs the
     * contract's minutes in no time; production: {@link Scheduler#vertx} on the wall clock).
     */
    public static Future<SwitchboardApp> start(Vertx vertx, SwitchboardConfig config, Readiness readiness,
            Scheduler bridgeTime) {
        Readiness.Condition storeMigrated = readiness.pending("store migrated");
        // the routes, the bridge and Slack are up: what the port serves before is only the probes and the metrics
        Readiness.Condition started = readiness.pending("started");
        Clock clock = Clock.systemUTC();
        List<String> missing = Exposure.missing(config);
        if (!missing.isEmpty()) {
            if (!config.server().insecure()) {
                return Future.failedFuture(new IllegalStateException(Exposure.describe(config.server(), missing)));
            }
            LOG.warn(Exposure.describe(config.server(), missing));
        }
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        StandardMetrics.register(meters);
        // the port is bound while the store opens (both take a while, and the machine has other cores): /readyz
        // answers 503 naming what is pending, and a port in use fails the start as soon as the store would
        Starting starting = new Starting(vertx, readiness, meters,
                MetricsAccess.mainPort(config.server().ops() != null, config.server().host(),
                config.server().adminToken()));
        // a foreign Host is refused in front of everything (DNS rebinding): the router only sees requests it passed
        HostCheck hosts = HostCheck.of(config.server().host(), config.server().publicUrl(), config.server().hostNames());
        Future<SwitchboardServer> listening = SwitchboardServer.start(vertx, starting::handle,
                request -> hosts.refused(request) || starting.front(request),
                config.server().host(), config.server().port(), config.server().http(),
                new RequestBudget(config.server().gateway().maxRequestBytesInFlight()));
        Future<SwitchboardServer> opsListening = config.server().ops() == null ? Future.succeededFuture()
                : OpsListener.start(vertx, config.server().ops(), config.server().http(),
                        HostCheck.of(config.server().ops().host(), config.server().publicUrl(), config.server().hostNames()),
                        readiness, meters);
        Future<OpenedStore> opening = vertx.executeBlocking(() -> OpenedStore.open(config, clock.instant()));
        return Future.join(listening, opsListening, opening).transform(both -> {
            if (both.failed()) {
                // what did start is closed again; the store's failure is the one told when both failed
                Future<Void> closing = Future.all(closeIfStarted(listening), closeIfStarted(opsListening)).mapEmpty();
                if (opening.succeeded()) {
                    closing = closing.eventually(() -> vertx.executeBlocking(() -> {
                        opening.result().close();
                        return null;
                    }));
                }
                meters.close();
                Throwable cause = opening.failed() ? opening.cause()
                        : listening.failed() ? listening.cause() : opsListening.cause();
                return closing.transform(ignored -> Future.<SwitchboardApp>failedFuture(cause));
            }
            try {
                storeMigrated.met();
                return serve(vertx, config, clock, bridgeTime, meters, starting, listening.result(), opsListening.result(),
                        opening.result(), readiness, started);
            } catch (RuntimeException e) {
                return Future.all(closeIfStarted(listening), closeIfStarted(opsListening)).eventually(() -> vertx.executeBlocking(() -> {
                    opening.result().close();
                    meters.close();
                    return null;
                })).transform(ignored -> Future.<SwitchboardApp>failedFuture(e));
            }
        });
    }

    private static Future<Void> closeIfStarted(Future<SwitchboardServer> listening) {
        return listening.succeeded() && listening.result() != null ? listening.result().close() : Future.succeededFuture();
    }

    /** The store is open and the port bound: builds the app over them and lets it take the requests. */
    private static Future<SwitchboardApp> serve(Vertx vertx, SwitchboardConfig config, Clock clock,
            Scheduler bridgeTime, PrometheusMeterRegistry meters, Starting starting, SwitchboardServer server, SwitchboardServer opsServer,
            OpenedStore store, Readiness readiness, Readiness.Condition started) {
        Database db = store.database();
        AgentRegistry registry = store.registry();
        HttpClientOptions clientOptions = new HttpClientOptions()
                .setKeepAlive(true)
                .setDecompressionSupported(false)
                .setMaxInitialLineLength(8192);
        PoolOptions pool = new PoolOptions().setHttp1MaxSize(20_000).setMaxWaitQueueSize(-1);
        // for card fetches; relayed calls go through the gateway's own connections, one pool per event loop
        HttpClientAgent client = vertx.httpClientBuilder().with(clientOptions).with(pool).build();
        AgentConnections upstream = new AgentConnections(vertx);
        CallerAuth auth = new CallerAuth(config.server().apiKeys(), CallerAuthBuilder.jwt(vertx, config, clock));
        AccessControl access = new AccessControl(grants(config),
                new CallerLimits(config.server().gateway().callerLimits(), System::nanoTime));
        boolean kubemq = config.server().compat() == Compat.KUBEMQ;
        Egress egress = new Egress(vertx, EgressPolicy.of(config.server().registry().allowedHosts()));
        CardRoutes cards = new CardRoutes(client, registry, egress, Version.current(), config.server().publicUrl(),
                config.bridge().webChat().proxies(), auth).kubemqPlatformCard(kubemq).access(access);
        LiveBindings bindings = new LiveBindings(Bindings.of(config, registry));
        WebChatPlatform webChat = new WebChatPlatform();
        SlackPlatform slack = new SlackPlatform(SlackApps.of(config), bindings.specs(), clock);
        Tracing tracing = Tracing.start(config.server().tracing(), Version.current());
        BridgeService bridge = BridgeService.create(vertx, db.dataSource(), config.bridge().contract(),
                config.bridge().limits(), bindings, List.of(webChat, slack), meters, bridgeTime, tracing);
        slack.skills(new AgentSkills(bindings, bridge::fetchCard, Duration.ofSeconds(5))::of);
        slack.attach(bridge.driver(), bridge.store(), bridge.feedback(), meters);
        Triggers triggers = TriggerApps.of(config, bindings.specs(), bridge, slack, clock);

        GatewayMetrics gatewayMetrics = new GatewayMetrics(meters, registry, kubemq);
        CallerMetrics callerMetrics = new CallerMetrics(meters);
        ConsoleRoutes console = Console.create(vertx, config, registry, cards, gatewayMetrics, bridge.store(), auth, access,
                clock);
        registry.onRemoved(id -> {
            console.forget(id);
            gatewayMetrics.forget(id);
            callerMetrics.forget(id);
            cards.forget(id);
        });
        McpSettings mcpSettings = config.server().mcp();
        // the third door: the gateway's callers, grants and agents as MCP tools
        McpDoor mcp = mcpSettings.enabled() ? McpDoor.create(vertx, registry, auth, new McpGrants(access), mcpSettings, egress,
                config.server().callerIdHeader(), tracing, meters, Version.current(),
                Duration.ofSeconds(AgentLimits.DEFAULTS.defaultTimeoutSeconds())) : null;
        GatewayHandler gateway = new GatewayHandler(vertx, upstream, registry,
                new HeaderPolicy(config.server().callerIdHeader()), auth, gatewayMetrics, config.server().gateway(), egress,
                tracing, server.requestBudget(), access, new CallerIdentity(CallerAuthBuilder.signer(config, clock)),
                callerMetrics);
        // push notifications through the gateway (G14): configs and the outbox in the store, delivered under egress
        dev.switchboard.push.PushStore pushStore = new dev.switchboard.push.PushStore(db.dataSource());
        dev.switchboard.push.PushDelivery pushDelivery = new dev.switchboard.push.PushDelivery(vertx, client, pushStore,
                egress.policy(), config.server().gateway().push(), new dev.switchboard.push.PushMetrics(meters),
                System::currentTimeMillis);
        gateway.push(new dev.switchboard.gateway.PushConfigCalls(vertx, pushStore, egress.policy()),
                new dev.switchboard.gateway.PushCallbacks(vertx, pushStore, pushDelivery, config.server().gateway().push(),
                        tracing),
                cards::baseUrl);
        pushDelivery.start(1000);
        Routes.Features features = new Routes.Features(readiness, meters,
                MetricsAccess.mainPort(config.server().ops() != null, config.server().host(), config.server().adminToken()),
                new RegistryRoutes(vertx, registry, egress.policy(), config.server().adminToken(), auth, clock,
                        cards::invalidate).bareList(kubemq).visibleTo(caller -> {
                            Grants grants = access.grants();
                            return grants.open() ? a -> true : a -> grants.mayCall(caller, a);
                        }),
                cards, gateway,
                new WebChatRoutes(vertx, bridge.store(), webChat, bridge.driver(), bindings::specs,
                        id -> registry.find(id).map(RegisteredAgent::description).orElse(""), config.bridge().webChat(),
                        new WebChatRoutes.Server(config.server().host(), config.server().publicUrl(),
                                config.server().insecure()), auth, clock),
                slack.eventsRoutes(vertx).orElse(null),
                new TriggerRoutes(vertx, triggers), mcp, console);
        List<Routes.Route> routes = Routes.main(features);
        Router router = Routes.router(vertx, routes);

        SwitchboardApp app = new SwitchboardApp(vertx, router, store, meters, client, cards, bridge, bindings,
                webChat, slack, readiness, tracing, upstream, triggers, new ConfiguredAgents(registry, config));
        app.shutdownGrace = config.server().http().shutdownGracePeriod();
        if (registry.shared()) {
            // another replica's registration, change or removal reaches this one's view (and card cache) at once
            registry.onChanged(cards::forget);
            app.registryNotifications = RegistryNotifications.start(db, registry);
        }
        app.routes = routes;
        app.mcp = mcp;
        app.console = console;
        app.access = access;
        app.server = server;
        app.opsServer = opsServer;
        starting.serve(router, Routes.bypass(gateway));
        app.startExpiry(clock);
        return bridge.start().map(resumed -> {
            if (resumed > 0) {
                LOG.info("resumed {} chat session(s) with unfinished turns", resumed);
            }
            slack.start();
            started.met();
            return app;
        }).onFailure(e -> app.close());
    }

    private static Grants grants(SwitchboardConfig config) {
        return Grants.of(config.policies(), config.backendLabels());
    }

    /** Dynamic registrations expire after the TTL without a heartbeat (G9). */
    private void startExpiry(Clock clock) {
        long period = Math.max(100, Math.min(5_000, registry.ttl().toMillis() / 3));
        expiryTimer = vertx.setPeriodic(period, t -> vertx.executeBlocking(() -> registry.expire(clock.instant()))
                .onSuccess(expired -> {
                    if (!expired.isEmpty()) {
                        LOG.info("registrations expired without a heartbeat: {}", expired);
                        cards.invalidate();
                    }
                })
                .onFailure(e -> LOG.warn("registry expiry failed: {}", e.getMessage())));
    }

    /**
     * Puts a new configuration of agents and Bindings in force without a restart (Kubernetes watch mode): agents
     * added, changed (URL, headers, token: the next call uses them, and their cards are fetched again) and removed
     * (their next gateway call is an unknown agent); Bindings likewise ({@link LiveBindings}), the slack ones too (the
     * Slack intake maps a channel to its Binding at each event; a slack Binding must name a SlackApp running since
     * start); Triggers too (their token and Binding as now for the next request). The Server and the SlackApps stay as
     * they were at start. Safe from any thread but the event loop (the registry
     * writes to the store).
     */
    public synchronized void apply(SwitchboardConfig live) {
        boolean changed = configuredAgents.apply(live, Clock.systemUTC().instant(), cards::forget);
        java.util.Set<String> removed = bindings.replace(Bindings.of(live, registry));
        slack.bindings(bindings.specs());
        triggers.replace(TriggerApps.settings(live), bindings.specs());
        if (console != null) {
            console.dialects(Console.dialects(live), true); // only watch mode applies
        }
        access.replace(grants(live));
        bridge.driver().bindingsRemoved(removed);
        if (changed) {
            cards.invalidate();
        }
    }

    /** Watch mode's resources and their Ready conditions, for the console. */
    public void resourceStatuses(Supplier<List<ResourceStatus>> statuses) {
        console.resourceStatuses(statuses);
    }

    public Vertx vertx() {
        return vertx;
    }

    /** The main port's router; the demo adds its agents' paths after {@link Routes}' (the demo module's DemoAgents). */
    public Router router() {
        return router;
    }

    /** The main port's table, as it is served. */
    List<Routes.Route> routes() {
        return routes;
    }

    public AgentRegistry registry() {
        return registry;
    }

    public BridgeService bridge() {
        return bridge;
    }

    public SlackPlatform slack() {
        return slack;
    }

    public WebChatPlatform webChat() {
        return webChat;
    }

    /** What {@code /readyz} answers from; start-up and shutdown steps add their conditions to it. */
    public Readiness readiness() {
        return readiness;
    }

    public SwitchboardServer server() {
        return server;
    }

    /** The app's tracing ({@link Tracing#on()} false unless the Server resource names an OTLP endpoint). */
    public Tracing tracing() {
        return tracing;
    }

    public String baseUrl() {
        return server.baseUrl();
    }

    /** The {@code Server.spec.ops.listen} listener, or null when /metrics is on the main port. */
    public SwitchboardServer opsServer() {
        return opsServer;
    }

    /** Invalidates cached cards after agents were added outside the registry API. */
    public void agentsChanged() {
        cards.invalidate();
    }

    /**
     * SIGTERM: {@code /readyz} turns 503 at once, new requests are answered 503, the gateway calls and API writes in
     * flight get up to {@code Server.spec.http.shutdownGracePeriod} to finish; then everything closes, the store last.
     */
    public Future<Void> shutdown() {
        readiness.pending("shutting down");
        Future<Void> drained = server == null ? Future.succeededFuture() : server.drain(shutdownGrace);
        return drained.eventually(this::close);
    }

    /** The longest {@link #shutdown} waits for calls in flight before it closes their connections. */
    public Duration shutdownGrace() {
        return shutdownGrace;
    }

    public Future<Void> close() {
        if (mcp != null) {
            mcp.close();
        }
        if (console != null) {
            console.close();
        }
        if (expiryTimer != -1) {
            vertx.cancelTimer(expiryTimer);
        }
        Future<Void> stop = Future.all(server == null ? Future.succeededFuture() : server.close(),
                opsServer == null ? Future.succeededFuture() : opsServer.close()).mapEmpty();
        return stop.eventually(this::closeResources);
    }

    /** Stops the bridge and the clients, then closes the store once nothing can write to it. */
    private Future<Void> closeResources() {
        // both wait for their threads to finish what they are doing: not on the event loop
        return vertx.executeBlocking(() -> {
            if (registryNotifications != null) {
                registryNotifications.close();
            }
            slack.close();
            bridge.close();
            tracing.close(); // the spans of calls that ended are sent; the bridge's unfinished turns end elsewhere
            return null;
        }).eventually(() -> client.close()).eventually(upstream::close).eventually(() -> {
            meters.close();
            return vertx.executeBlocking(() -> {
                store.close();
                return null;
            });
        }).mapEmpty();
    }
}
