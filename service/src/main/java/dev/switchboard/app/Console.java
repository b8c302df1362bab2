package dev.switchboard.app;

import dev.switchboard.auth.CallerAuth;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.console.CardProbe;
import dev.switchboard.console.ConsoleRoutes;
import dev.switchboard.console.RollingCalls;
import dev.switchboard.gateway.CardRoutes;
import dev.switchboard.gateway.GatewayMetrics;
import dev.switchboard.ops.MetricsAccess;
import dev.switchboard.policy.AccessControl;
import dev.switchboard.registry.AgentRegistry;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the operator's console over the app's registry, cards, gateway meters and chat store, its probe started by the console's first use. */
final class Console {

    private Console() {}

    static ConsoleRoutes create(Vertx vertx, SwitchboardConfig config, AgentRegistry registry, CardRoutes cards,
            GatewayMetrics gatewayMetrics, ChatStore store, CallerAuth auth, AccessControl grants, Clock clock) {
        RollingCalls calls = new RollingCalls(clock::millis, id -> registry.find(id).isPresent());
        gatewayMetrics.observe(calls);
        CardProbe probe = new CardProbe(vertx, registry, cards::probe, config.server().registry().probeInterval(), clock);
        // the console's API is operator data like /metrics, and asks what /metrics asks on the main port; or an
        // AccessPolicy's admin grant, read as the policies are now
        MetricsAccess access = MetricsAccess.mainPort(false, config.server().host(), config.server().adminToken());
        ConsoleRoutes console = new ConsoleRoutes(registry, cards, probe, calls, store, access, auth, grants::grants, clock);
        console.dialects(dialects(config), false);
        return console;
    }

    /** The configured agents' dialects by id. */
    static Map<String, String> dialects(SwitchboardConfig config) {
        Map<String, String> out = new LinkedHashMap<>();
        for (AgentBackendSpec b : config.backends()) {
            out.put(b.name(), b.dialect().configName());
        }
        return out;
    }
}
