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
        List<String> hostNames) {

    public ServerSpec {
        tracing = tracing == null ? TracingSettings.OFF : tracing;
        compat = compat == null ? Compat.NONE : compat;
        hostNames = hostNames == null ? List.of() : List.copyOf(hostNames);
    }

    /** /metrics on the main port (no {@code ops.listen}), no host names of its own (the Host check's defaults). */
    public ServerSpec(String host, int port, String store, String adminToken, List<CallerAuth.ApiKey> apiKeys,
            String callerIdHeader, Duration registrationTtl, GatewaySettings gateway, boolean insecure, String publicUrl,
            HttpLimits http, RegistrySettings registry, SecretRef storePasswordSecretRef, TracingSettings tracing,
            Compat compat) {
        this(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway, insecure, publicUrl, http,
                registry, storePasswordSecretRef, tracing, compat, null, List.of());
    }

    /** Switchboard's own names (no {@code compat}). */
    public ServerSpec(String host, int port, String store, String adminToken, List<CallerAuth.ApiKey> apiKeys,
            String callerIdHeader, Duration registrationTtl, GatewaySettings gateway, boolean insecure, String publicUrl,
            HttpLimits http, RegistrySettings registry, SecretRef storePasswordSecretRef, TracingSettings tracing) {
        this(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway, insecure, publicUrl, http,
                registry, storePasswordSecretRef, tracing, Compat.NONE);
    }

    /** A server that traces nothing. */
    public ServerSpec(String host, int port, String store, String adminToken, List<CallerAuth.ApiKey> apiKeys,
            String callerIdHeader, Duration registrationTtl, GatewaySettings gateway, boolean insecure, String publicUrl,
            HttpLimits http, RegistrySettings registry, SecretRef storePasswordSecretRef) {
        this(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway, insecure, publicUrl, http,
                registry, storePasswordSecretRef, TracingSettings.OFF);
    }

    /** A server with no store password of its own. */
    public ServerSpec(String host, int port, String store, String adminToken, List<CallerAuth.ApiKey> apiKeys,
            String callerIdHeader, Duration registrationTtl, GatewaySettings gateway, boolean insecure, String publicUrl,
            HttpLimits http, RegistrySettings registry) {
        this(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway, insecure, publicUrl, http,
                registry, null);
    }

    public static final String DEFAULT_CALLER_ID_HEADER = "X-Switchboard-Caller-ID";
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int MIN_ADMIN_TOKEN_LENGTH = 16;

    public static ServerSpec defaults() {
        return new ServerSpec(DEFAULT_HOST, 8080, "sqlite:./data/switchboard.db", null, List.of(),
                DEFAULT_CALLER_ID_HEADER, Duration.ofSeconds(90), GatewaySettings.DEFAULTS, false, null,
                HttpLimits.DEFAULTS, RegistrySettings.DEFAULTS);
    }

    public ServerSpec withListen(String newHost, int newPort) {
        return new ServerSpec(newHost, newPort, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway,
                insecure, publicUrl, http, registry, storePasswordSecretRef, tracing, compat, ops, hostNames);
    }

    public ServerSpec withStore(String newStore) {
        return new ServerSpec(host, port, newStore, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway,
                insecure, publicUrl, http, registry, storePasswordSecretRef, tracing, compat, ops, hostNames);
    }

    public ServerSpec withInsecure(boolean newInsecure) {
        return new ServerSpec(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway,
                newInsecure, publicUrl, http, registry, storePasswordSecretRef, tracing, compat, ops, hostNames);
    }

    public ServerSpec withTracing(TracingSettings newTracing) {
        return new ServerSpec(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway,
                insecure, publicUrl, http, registry, storePasswordSecretRef, newTracing, compat, ops, hostNames);
    }

    public ServerSpec withOps(OpsListen newOps) {
        return new ServerSpec(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway,
                insecure, publicUrl, http, registry, storePasswordSecretRef, tracing, compat, newOps, hostNames);
    }

    /**
     * With KubeMQ's names: the caller-id header becomes {@value Compat#KUBEMQ_CALLER_ID_HEADER} unless one
     * other than Switchboard's default was set.
     */
    public ServerSpec withCompat(Compat newCompat) {
        String header = newCompat == Compat.KUBEMQ && callerIdHeader.equals(DEFAULT_CALLER_ID_HEADER)
                ? Compat.KUBEMQ_CALLER_ID_HEADER : callerIdHeader;
        return new ServerSpec(host, port, store, adminToken, apiKeys, header, registrationTtl, gateway,
                insecure, publicUrl, http, registry, storePasswordSecretRef, tracing, newCompat, ops, hostNames);
    }

    public ServerSpec withHostNames(List<String> newHostNames) {
        return new ServerSpec(host, port, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway,
                insecure, publicUrl, http, registry, storePasswordSecretRef, tracing, compat, ops, newHostNames);
    }

    @Override
    public String toString() {
        return "ServerSpec[host=" + host + ", port=" + port + ", store=" + dev.switchboard.store.Database.redact(store)
                + ", storePassword=" + (storePasswordSecretRef == null ? "none" : "secret " + storePasswordSecretRef.name())
                + ", adminToken="
                + (adminToken == null ? "none" : "***") + ", apiKeys=" + apiKeys + ", callerIdHeader=" + callerIdHeader
                + ", registrationTtl=" + registrationTtl + ", insecure=" + insecure + ", publicUrl=" + publicUrl
                + ", tracing=" + (tracing.enabled() ? tracing.tracesUrl() : "off") + ", compat=" + compat
                + ", ops=" + (ops == null ? "main port" : ops.host() + ":" + ops.port()) + ", hostNames=" + hostNames + "]";
    }
}
