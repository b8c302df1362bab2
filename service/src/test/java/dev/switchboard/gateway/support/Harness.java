package dev.switchboard.gateway.support;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.chat.web.WebChatSettings;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.BridgeSettings;
import dev.switchboard.config.Compat;
import dev.switchboard.config.SecretRef;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.net.Addresses;
import dev.switchboard.net.CidrBlock;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.RegistrySettings;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Switchboard under test: a Vert.x instance, real upstream agents on ephemeral ports, the
 * configuration built from records, the app on an ephemeral port with its own SQLite file, and an
 * HTTP client pointed at it. Nothing of Switchboard is mocked.
 */
public final class Harness implements AutoCloseable {

    // the transport Switchboard runs on (native epoll where it loads), so the tests exercise it
    public final Vertx vertx = SwitchboardApp.newVertx();
    private final Path dir;
    private final List<TestAgent> agents = new ArrayList<>();
    private final List<RawAgent> raws = new ArrayList<>();
    // the app's lifecycle is SwitchboardFixture's; this class keeps the gateway tests' configuration vocabulary
    private SwitchboardFixture fixture;
    private TestHttp http;

    private String adminToken;
    private final List<CallerAuth.ApiKey> apiKeys = new ArrayList<>();
    private String callerIdHeader = ServerSpec.DEFAULT_CALLER_ID_HEADER;
    private Compat compat = Compat.NONE;
    private Duration registrationTtl = Duration.ofSeconds(90);
    private GatewaySettings gateway = GatewaySettings.DEFAULTS;
    private String listenHost = "127.0.0.1";
    private String publicUrl;
    private dev.switchboard.config.AuthSettings auth;
    private List<String> hostNames = List.of();
    private RegistrySettings registry = RegistrySettings.DEFAULTS;
    private String store;
    private List<CidrBlock> trustedProxies = List.of();
    private final List<AgentBackendSpec> backends = new ArrayList<>();
    private final Map<String, Map<String, String>> secrets = new LinkedHashMap<>();
    private final List<dev.switchboard.policy.AccessPolicySpec> policies = new ArrayList<>();

    public Harness(Path dir) {
        this.dir = dir;
    }

    // ---- upstreams ----

    public TestAgent agent(TestAgentOptions options) {
        TestAgent agent = Wait.on(TestAgent.start(vertx, options, 0));
        agents.add(agent);
        return agent;
    }

    public RawAgent raw(RawAgent.Responder responder) {
        RawAgent agent = Wait.on(RawAgent.start(vertx, responder));
        raws.add(agent);
        return agent;
    }

    // ---- configuration ----

    public Harness backend(String name, String url) {
        return backend(spec(name, url, AgentLimits.DEFAULTS, Map.of(), null, List.of()));
    }

    public Harness backend(String name, String url, AgentLimits limits) {
        return backend(spec(name, url, limits, Map.of(), null, List.of()));
    }

    public Harness backend(AgentBackendSpec spec) {
        backends.add(spec);
        return this;
    }

    /** An AccessPolicy: with any, the gateway refuses what none grants. */
    public Harness policy(dev.switchboard.policy.AccessPolicySpec policy) {
        policies.add(policy);
        return this;
    }

    public Harness adminToken(String token) {
        this.adminToken = token;
        return this;
    }

    public Harness apiKey(String name, String key) {
        apiKeys.add(new CallerAuth.ApiKey(name, key));
        return this;
    }

    /** {@code Server.spec.compat}. */
    public Harness compat(Compat value) {
        this.compat = value;
        return this;
    }

    public Harness callerIdHeader(String header) {
        this.callerIdHeader = header;
        return this;
    }

    /** The store (default: {@code sqlite:} a file in the test's folder), e.g. a {@code postgresql://} URL. */
    public Harness store(String store) {
        this.store = store;
        return this;
    }

    public Harness registrationTtl(Duration ttl) {
        this.registrationTtl = ttl;
        return this;
    }

    public Harness gateway(GatewaySettings settings) {
        this.gateway = settings;
        return this;
    }

    /** The listen address (default 127.0.0.1); the app's base URL shows a wildcard as 127.0.0.1. */
    public Harness listen(String host) {
        this.listenHost = host;
        return this;
    }

    public Harness publicUrl(String url) {
        this.publicUrl = url;
        return this;
    }

    /** {@code Server.spec.hostNames}: the Host names answered besides loopback ones and publicUrl's. */
    public Harness hostNames(String... names) {
        this.hostNames = List.of(names);
        return this;
    }

    public Harness registry(RegistrySettings settings) {
        this.registry = settings;
        return this;
    }

    /** The web chat's trusted proxies, which the cards trust for X-Forwarded-Host/-Proto too. */
    public Harness trustedProxies(String... cidrs) {
        this.trustedProxies = java.util.Arrays.stream(cidrs).map(CidrBlock::parse).toList();
        return this;
    }

    public Harness keepaliveInterval(Duration interval) {
        return gateway(new GatewaySettings(gateway.maxRequestBytes(), interval, gateway.connectTimeout(),
                gateway.maxRequestBytesInFlight()));
    }

    /** {@code Server.spec.auth}: JWT issuers and the caller-token signer. */
    public Harness auth(dev.switchboard.config.AuthSettings settings) {
        this.auth = settings;
        return this;
    }

    public Harness secret(String name, String key, String value) {
        secrets.computeIfAbsent(name, n -> new LinkedHashMap<>()).put(key, value);
        return this;
    }

    /** {@code Server.spec.mcp}: the MCP door's settings. */
    public Harness mcp(dev.switchboard.mcp.McpSettings settings) {
        this.mcp = settings;
        return this;
    }

    private dev.switchboard.mcp.McpSettings mcp = dev.switchboard.mcp.McpSettings.DEFAULTS;

    public SwitchboardConfig config() {
        ServerSpec d = ServerSpec.defaults();
        ServerSpec server = d.toBuilder().host(listenHost).port(0)
                .store(store != null ? store : "sqlite:" + dir.resolve("switchboard.db")).adminToken(adminToken)
                .apiKeys(List.copyOf(apiKeys)).callerIdHeader(callerIdHeader).registrationTtl(registrationTtl)
                .gateway(gateway).insecure(!Addresses.isLoopbackOnly(listenHost))
                .publicUrl(publicUrl).registry(registry).mcp(mcp).auth(auth).build().withCompat(compat).withHostNames(hostNames);
        BridgeSettings bridge = trustedProxies.isEmpty() ? BridgeSettings.DEFAULTS
                : new BridgeSettings(new WebChatSettings(false, WebChatSettings.DEFAULTS.defaultUser(), trustedProxies),
                        BridgeSettings.DEFAULTS.contract(), BridgeSettings.DEFAULTS.limits());
        return SwitchboardConfig.empty().withServer(server).withBackends(List.copyOf(backends))
                .withSecrets(Map.copyOf(secrets)).withBridge(bridge).withPolicies(List.copyOf(policies));
    }

    public static AgentBackendSpec spec(String name, String url, AgentLimits limits, Map<String, String> headers,
            SecretRef token, List<AgentSkill> skills) {
        return new AgentBackendSpec(name, "default", url, Dialect.A2A, null, null, null, headers, token,
                limits, skills);
    }

    public static AgentLimits limits(int maxConcurrency, long defaultTimeoutSeconds, long maxTimeoutSeconds,
            long maxResponseBytes, long streamIdleTimeoutSeconds) {
        return new AgentLimits(maxConcurrency, defaultTimeoutSeconds, maxTimeoutSeconds, maxResponseBytes,
                streamIdleTimeoutSeconds);
    }

    // ---- the app ----

    public Harness start() {
        SwitchboardConfig config = config();
        fixture = SwitchboardFixture.builder().vertx(vertx).config(agents -> config).start();
        if (http != null) {
            http.close();
        }
        http = new TestHttp(vertx, fixture.baseUrl());
        return this;
    }

    /** Stops the app and starts a new one on the configuration as it is now, and the same store file. */
    public Harness restart() {
        fixture.close();
        return start();
    }

    public SwitchboardApp app() {
        return fixture.app();
    }

    public TestHttp http() {
        return http;
    }

    public String base() {
        return fixture.baseUrl();
    }

    public Metrics metrics() {
        Reply r = http.get("/metrics");
        if (r.status() != 200) {
            throw new IllegalStateException("/metrics answered " + r);
        }
        return new Metrics(r.text());
    }

    /** The gateway's in-flight gauge for an agent, read from /metrics. */
    public int inFlight(String agentId) {
        return (int) metrics().sum("switchboard_gateway_in_flight", "agent", agentId);
    }

    /** The gateway's open-streams gauge for an agent, read from /metrics. */
    public int openStreams(String agentId) {
        return (int) metrics().sum("switchboard_gateway_streams_open", "agent", agentId);
    }

    @Override
    public void close() {
        try {
            if (http != null) {
                http.close();
            }
            if (fixture != null) {
                fixture.close();
            }
            for (TestAgent a : agents) {
                Wait.on(a.close());
            }
            for (RawAgent r : raws) {
                Wait.on(r.close());
            }
        } finally {
            Wait.on(vertx.close());
        }
    }
}
