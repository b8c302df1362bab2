package dev.switchboard.config;

import dev.switchboard.auth.CallerAuth;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.registry.RegistrySettings;
import dev.switchboard.tracing.TracingSettings;
import java.time.Duration;
import java.util.List;

/**
 * The {@code Server} resource; every field has a default.
 *
 * @param host listen address (default 127.0.0.1: nothing is reachable from the network unless asked for)
 * @param port listen port (default 8080)
 * @param store {@code sqlite:PATH} (default {@code sqlite:./data/switchboard.db}) or
 *     {@code postgresql://host[:port]/db[?user=…&sslmode=…]}; never holds a password
 * @param adminToken when set, registry writes need it as a bearer token (at least 16 characters)
 * @param apiKeys when set, gateway callers need one
 * @param callerIdHeader header carrying the caller's identity to agents (default X-Switchboard-Caller-ID)
 * @param registrationTtl dynamic registrations expire after this without a heartbeat (default 90 s)
 * @param insecure the operator accepts listening beyond loopback without credentials (default false)
 * @param publicUrl the URL clients reach this server at (scheme, host, port), used in cards and for the web
 *     chat's Host and Origin checks; null means the listen address
 * @param http bounds on connections
 * @param registry what API-registered agents may be
 * @param storePasswordSecretRef the PostgreSQL password, a key of a Secret; null: the environment's PGPASSWORD, if any
 * @param tracing where OpenTelemetry spans go ({@code spec.tracing}); off by default
 * @param compat whose names the caller-visible parts use (default {@link Compat#NONE}: Switchboard's)
 * @param ops where /metrics is served apart from the main port ({@code spec.ops.listen}); null: on the main port
 * @param hostNames the {@code Host} names this server answers to besides loopback names and addresses, its own
 *     addresses and {@code publicUrl}'s host: names ({@code switchboard.agents.svc}), subdomain patterns
 *     ({@code *.example.com}), IP addresses (a load balancer's), or {@code *} for any (no Host check). Empty (the
 *     default): the check is on for a loopback listen or when {@code publicUrl} is set, off otherwise
 *     (the app's HostCheck)
 */
public record ServerSpec(
        String host,
        int port,
        String store,
        String adminToken,
        List<CallerAuth.ApiKey> apiKeys,
        String callerIdHeader,
        Duration registrationTtl,
        GatewaySettings gateway,
        boolean insecure,
        String publicUrl,
        HttpLimits http,
        RegistrySettings registry,
        SecretRef storePasswordSecretRef,
        TracingSettings tracing,
        Compat compat,
        OpsListen ops,
        List<String> hostNames,
        dev.switchboard.mcp.McpSettings mcp,
        AuthSettings auth) {

    public ServerSpec {
        mcp = mcp == null ? dev.switchboard.mcp.McpSettings.DEFAULTS : mcp;
        auth = auth == null ? AuthSettings.DEFAULTS : auth;
        tracing = tracing == null ? TracingSettings.OFF : tracing;
        compat = compat == null ? Compat.NONE : compat;
        hostNames = hostNames == null ? List.of() : List.copyOf(hostNames);
    }

    public static final String DEFAULT_CALLER_ID_HEADER = "X-Switchboard-Caller-ID";
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int MIN_ADMIN_TOKEN_LENGTH = 16;

    public static ServerSpec defaults() {
        return new ServerSpec(DEFAULT_HOST, 8080, "sqlite:./data/switchboard.db", null, List.of(),
                DEFAULT_CALLER_ID_HEADER, Duration.ofSeconds(90), GatewaySettings.DEFAULTS, false, null,
                HttpLimits.DEFAULTS, RegistrySettings.DEFAULTS, null, TracingSettings.OFF, Compat.NONE, null, List.of(),
                dev.switchboard.mcp.McpSettings.DEFAULTS, AuthSettings.DEFAULTS);
    }

    /** This spec's values in a builder, to change several at once. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public ServerSpec withListen(String newHost, int newPort) {
        return toBuilder().host(newHost).port(newPort).build();
    }

    public ServerSpec withStore(String newStore) {
        return toBuilder().store(newStore).build();
    }

    /** Registry writes (and /metrics from beyond this machine) need it; null: none. */
    public ServerSpec withAdminToken(String newAdminToken) {
        return toBuilder().adminToken(newAdminToken).build();
    }

    public ServerSpec withApiKeys(List<CallerAuth.ApiKey> newApiKeys) {
        return toBuilder().apiKeys(newApiKeys).build();
    }

    public ServerSpec withCallerIdHeader(String newCallerIdHeader) {
        return toBuilder().callerIdHeader(newCallerIdHeader).build();
    }

    public ServerSpec withRegistrationTtl(Duration newRegistrationTtl) {
        return toBuilder().registrationTtl(newRegistrationTtl).build();
    }

    public ServerSpec withGateway(GatewaySettings newGateway) {
        return toBuilder().gateway(newGateway).build();
    }

    public ServerSpec withInsecure(boolean newInsecure) {
        return toBuilder().insecure(newInsecure).build();
    }

    public ServerSpec withPublicUrl(String newPublicUrl) {
        return toBuilder().publicUrl(newPublicUrl).build();
    }

    public ServerSpec withHttp(HttpLimits newHttp) {
        return toBuilder().http(newHttp).build();
    }

    public ServerSpec withRegistry(RegistrySettings newRegistry) {
        return toBuilder().registry(newRegistry).build();
    }

    public ServerSpec withStorePasswordSecretRef(SecretRef newRef) {
        return toBuilder().storePasswordSecretRef(newRef).build();
    }

    public ServerSpec withTracing(TracingSettings newTracing) {
        return toBuilder().tracing(newTracing).build();
    }

    public ServerSpec withAuth(AuthSettings newAuth) {
        return toBuilder().auth(newAuth).build();
    }

    public ServerSpec withOps(OpsListen newOps) {
        return toBuilder().ops(newOps).build();
    }

    public ServerSpec withMcp(dev.switchboard.mcp.McpSettings newMcp) {
        return toBuilder().mcp(newMcp).build();
    }

    public ServerSpec withHostNames(List<String> newHostNames) {
        return toBuilder().hostNames(newHostNames).build();
    }

    /**
     * With KubeMQ's names: the caller-id header becomes {@value Compat#KUBEMQ_CALLER_ID_HEADER} unless one
     * other than Switchboard's default was set.
     */
    public ServerSpec withCompat(Compat newCompat) {
        String header = newCompat == Compat.KUBEMQ && callerIdHeader.equals(DEFAULT_CALLER_ID_HEADER)
                ? Compat.KUBEMQ_CALLER_ID_HEADER : callerIdHeader;
        return toBuilder().callerIdHeader(header).compat(newCompat).build();
    }

    @Override
    public String toString() {
        return "ServerSpec[host=" + host + ", port=" + port + ", store=" + dev.switchboard.store.Database.redact(store)
                + ", storePassword=" + (storePasswordSecretRef == null ? "none" : "secret " + storePasswordSecretRef.name())
                + ", adminToken="
                + (adminToken == null ? "none" : "***") + ", apiKeys=" + apiKeys + ", callerIdHeader=" + callerIdHeader
                + ", registrationTtl=" + registrationTtl + ", insecure=" + insecure + ", publicUrl=" + publicUrl
                + ", tracing=" + (tracing.enabled() ? tracing.tracesUrl() : "off") + ", compat=" + compat
                + ", ops=" + (ops == null ? "main port" : ops.host() + ":" + ops.port()) + ", hostNames=" + hostNames + ", mcp=" + mcp + "]";
    }

    /**
     * A ServerSpec field by field, for callers that set several (the loader, test rigs); {@link #build} applies the
     * record's own normalisation. {@code compat} is set as given: {@link ServerSpec#withCompat} is the one that also
     * moves the caller-id header.
     */
    public static final class Builder {
        private String host;
        private int port;
        private String store;
        private String adminToken;
        private List<CallerAuth.ApiKey> apiKeys;
        private String callerIdHeader;
        private Duration registrationTtl;
        private GatewaySettings gateway;
        private boolean insecure;
        private String publicUrl;
        private HttpLimits http;
        private RegistrySettings registry;
        private SecretRef storePasswordSecretRef;
        private TracingSettings tracing;
        private Compat compat;
        private OpsListen ops;
        private List<String> hostNames;
        private dev.switchboard.mcp.McpSettings mcp;
        private AuthSettings auth;

        private Builder(ServerSpec s) {
            host = s.host;
            port = s.port;
            store = s.store;
            adminToken = s.adminToken;
            apiKeys = s.apiKeys;
            callerIdHeader = s.callerIdHeader;
            registrationTtl = s.registrationTtl;
            gateway = s.gateway;
            insecure = s.insecure;
            publicUrl = s.publicUrl;
            http = s.http;
            registry = s.registry;
            storePasswordSecretRef = s.storePasswordSecretRef;
            tracing = s.tracing;
            compat = s.compat;
            ops = s.ops;
            hostNames = s.hostNames;
            mcp = s.mcp;
            auth = s.auth;
        }

        public Builder mcp(dev.switchboard.mcp.McpSettings v) {
            mcp = v;
            return this;
        }

        public Builder host(String v) {
            host = v;
            return this;
        }

        public Builder port(int v) {
            port = v;
            return this;
        }

        public Builder store(String v) {
            store = v;
            return this;
        }

        public Builder adminToken(String v) {
            adminToken = v;
            return this;
        }

        public Builder apiKeys(List<CallerAuth.ApiKey> v) {
            apiKeys = v;
            return this;
        }

        public Builder callerIdHeader(String v) {
            callerIdHeader = v;
            return this;
        }

        public Builder registrationTtl(Duration v) {
            registrationTtl = v;
            return this;
        }

        public Builder gateway(GatewaySettings v) {
            gateway = v;
            return this;
        }

        public Builder insecure(boolean v) {
            insecure = v;
            return this;
        }

        public Builder publicUrl(String v) {
            publicUrl = v;
            return this;
        }

        public Builder http(HttpLimits v) {
            http = v;
            return this;
        }

        public Builder registry(RegistrySettings v) {
            registry = v;
            return this;
        }

        public Builder storePasswordSecretRef(SecretRef v) {
            storePasswordSecretRef = v;
            return this;
        }

        public Builder tracing(TracingSettings v) {
            tracing = v;
            return this;
        }

        public Builder compat(Compat v) {
            compat = v;
            return this;
        }

        public Builder ops(OpsListen v) {
            ops = v;
            return this;
        }

        public Builder hostNames(List<String> v) {
            hostNames = v;
            return this;
        }

        public Builder auth(AuthSettings v) {
            auth = v;
            return this;
        }

        public ServerSpec build() {
            return new ServerSpec(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway,
                    insecure, publicUrl, http, registry, storePasswordSecretRef, tracing, compat, ops, hostNames, mcp, auth);
        }
    }
}
