package dev.switchboard.app;

import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agents of the configuration (file or cluster) in the registry, and what a live change of the configuration does
 * to them: added, changed (their cards are fetched again) or removed. Dynamic registrations are not touched.
 */
final class ConfiguredAgents {

    private final AgentRegistry registry;
    /** the configured agents now in the registry: what a live change compares with */
    private final Set<String> names = ConcurrentHashMap.newKeySet();

    ConfiguredAgents(AgentRegistry registry, SwitchboardConfig config) {
        this.registry = registry;
        config.backends().forEach(b -> names.add(b.name()));
    }

    /** Config-file agents: static headers plus the bearer token of their tokenSecretRef, if any. */
    static RegisteredAgent fromConfig(AgentBackendSpec b, SwitchboardConfig config, Instant now) {
        Map<String, String> headers = new LinkedHashMap<>(b.headers());
        if (b.tokenSecretRef() != null) {
            headers.put("Authorization", "Bearer " + config.secret(b.tokenSecretRef()).orElseThrow());
        }
        return new RegisteredAgent(b.name(), b.name(), b.url(), b.description() == null ? "" : b.description(), "",
                b.skills(), List.of("text/plain"), List.of("text/plain"), List.of(), headers, b.limits(),
                AgentOrigin.CONFIG, now, now, b.callerForwarding());
    }

    /**
     * Puts {@code live}'s agents in the registry, calling {@code changed} with each one added or changed; removes the
     * configured ones it no longer names. True when anything changed (cached cards may be stale). Blocks (the store).
     */
    boolean apply(SwitchboardConfig live, Instant now, java.util.function.Consumer<String> changed) {
        Set<String> wanted = new HashSet<>();
        boolean any = false;
        for (AgentBackendSpec b : live.backends()) {
            wanted.add(b.name());
            RegisteredAgent next = fromConfig(b, live, now);
            RegisteredAgent current = registry.find(b.name()).orElse(null);
            if (current == null || current.origin() != AgentOrigin.CONFIG || !sameAgent(current, next)) {
                registry.putConfigured(next);
                changed.accept(b.name());
                names.add(b.name());
                any = true;
            }
        }
        for (String id : List.copyOf(names)) {
            if (!wanted.contains(id)) {
                registry.removeConfigured(id);
                names.remove(id);
                any = true;
            }
        }
        return any;
    }

    /** Same endpoint, headers (credentials included), description, skills and limits: nothing to re-fetch. */
    private static boolean sameAgent(RegisteredAgent a, RegisteredAgent b) {
        return a.url().equals(b.url()) && a.headers().equals(b.headers()) && a.description().equals(b.description())
                && a.skills().equals(b.skills()) && Objects.equals(a.limits(), b.limits())
                && a.callerForwarding() == b.callerForwarding();
    }
}
