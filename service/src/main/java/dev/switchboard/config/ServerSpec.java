package dev.switchboard.config;

import dev.switchboard.gateway.CallerAuth;
import dev.switchboard.gateway.GatewaySettings;
import java.time.Duration;
import java.util.List;

/**
 * The {@code Server} resource; every field has a default.
 *
 * @param host listen address (default 0.0.0.0)
 * @param port listen port (default 8080)
 * @param store {@code sqlite:PATH} (default {@code sqlite:./data/switchboard.db})
 * @param adminToken when set, registry writes need it as a bearer token
 * @param apiKeys when set, gateway callers need one
 * @param callerIdHeader header carrying the caller's identity to agents (default X-Switchboard-Caller-ID)
 * @param registrationTtl dynamic registrations expire after this without a heartbeat (default 90 s)
 */
public record ServerSpec(
        String host,
        int port,
        String store,
        String adminToken,
        List<CallerAuth.ApiKey> apiKeys,
        String callerIdHeader,
        Duration registrationTtl,
        GatewaySettings gateway) {

    public static final String DEFAULT_CALLER_ID_HEADER = "X-Switchboard-Caller-ID";

    public static ServerSpec defaults() {
        return new ServerSpec("0.0.0.0", 8080, "sqlite:./data/switchboard.db", null, List.of(),
                DEFAULT_CALLER_ID_HEADER, Duration.ofSeconds(90), GatewaySettings.DEFAULTS);
    }

    public ServerSpec withListen(String newHost, int newPort) {
        return new ServerSpec(newHost, newPort, store, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway);
    }

    public ServerSpec withStore(String newStore) {
        return new ServerSpec(host, port, newStore, adminToken, apiKeys, callerIdHeader, registrationTtl, gateway);
    }

    @Override
    public String toString() {
        return "ServerSpec[host=" + host + ", port=" + port + ", store=" + store + ", adminToken="
                + (adminToken == null ? "none" : "***") + ", apiKeys=" + apiKeys + ", callerIdHeader=" + callerIdHeader
                + ", registrationTtl=" + registrationTtl + "]";
    }
}
