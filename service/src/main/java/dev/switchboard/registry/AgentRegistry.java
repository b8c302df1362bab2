package dev.switchboard.registry;

import dev.switchboard.gateway.ConcurrencyLimiter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agents behind the gateway: those of the config file and those registered over the API. Dynamic
 * registrations are written to the {@link RegistrationStore} before they are visible, so a restart
 * keeps them; they expire after {@code ttl} without a heartbeat. A limiter per agent id outlives
 * re-registrations, so re-registering an agent never resets its in-flight count.
 */
public final class AgentRegistry {

    private final ConcurrentHashMap<String, RegisteredAgent> agents = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ConcurrencyLimiter> limiters = new ConcurrentHashMap<>();
    private final RegistrationStore store;
    private final Duration ttl;

    public AgentRegistry(RegistrationStore store, Duration ttl) {
        this.store = store;
        this.ttl = ttl;
        for (RegisteredAgent a : store.loadAll()) {
            agents.put(a.id(), a);
        }
    }

    public Duration ttl() {
        return ttl;
    }

    /** Config-file agents replace whatever had the same id; they are not stored (the file is their store). */
    public void putConfigured(RegisteredAgent agent) {
        agents.put(agent.id(), agent);
        store.delete(agent.id());
    }

    public Optional<RegisteredAgent> find(String id) {
        return Optional.ofNullable(agents.get(id));
    }

    public ConcurrencyLimiter limiter(String id) {
        return limiters.computeIfAbsent(id, k -> new ConcurrencyLimiter());
    }

    /**
     * Registers or re-registers a dynamic agent. Re-registering keeps {@code registered_at} and
     * refreshes {@code last_seen}. A config-file agent cannot be overwritten over the API.
     */
    public RegisteredAgent register(RegisteredAgent requested, Instant now) {
        RegisteredAgent existing = agents.get(requested.id());
        if (existing != null && existing.origin() == AgentOrigin.CONFIG) {
            throw new IllegalStateException("agent_id " + requested.id() + " is defined in the configuration file and cannot be re-registered");
        }
        Instant registeredAt = existing != null ? existing.registeredAt() : now;
        RegisteredAgent agent = new RegisteredAgent(requested.id(), requested.name(), requested.url(),
                requested.description(), requested.version(), requested.skills(), requested.defaultInputModes(),
                requested.defaultOutputModes(), requested.protocolVersions(), requested.headers(),
                requested.limits(), AgentOrigin.DYNAMIC, registeredAt, now);
        store.save(agent);
        agents.put(agent.id(), agent);
        return agent;
    }

    /** Updates last_seen; empty when the agent is unknown. */
    public Optional<RegisteredAgent> heartbeat(String id, Instant now) {
        RegisteredAgent existing = agents.get(id);
        if (existing == null) {
            return Optional.empty();
        }
        RegisteredAgent seen = existing.seenAt(now);
        if (seen.origin() == AgentOrigin.DYNAMIC) {
            store.save(seen);
        }
        agents.put(id, seen);
        return Optional.of(seen);
    }

    /** Removes a dynamic agent; false when unknown. Config-file agents cannot be removed over the API. */
    public boolean deregister(String id) {
        RegisteredAgent existing = agents.get(id);
        if (existing == null) {
            return false;
        }
        if (existing.origin() == AgentOrigin.CONFIG) {
            throw new IllegalStateException("agent_id " + id + " is defined in the configuration file and cannot be deregistered");
        }
        store.delete(id);
        agents.remove(id, existing);
        return true;
    }

    /** Drops dynamic agents whose last heartbeat is older than the TTL; returns their ids. */
    public List<String> expire(Instant now) {
        List<String> expired = new ArrayList<>();
        for (RegisteredAgent a : agents.values()) {
            if (a.origin() == AgentOrigin.DYNAMIC && a.lastSeen().plus(ttl).isBefore(now)) {
                store.delete(a.id());
                if (agents.remove(a.id(), a)) {
                    expired.add(a.id());
                }
            }
        }
        return expired;
    }

    /** Agents in id order, filtered by skill tags (any skill with any tag) when tags is not empty. */
    public List<RegisteredAgent> list(Collection<String> tags, int limit) {
        return agents.values().stream()
                .filter(a -> tags.isEmpty() || a.hasAnyTag(tags))
                .sorted(Comparator.comparing(RegisteredAgent::id))
                .limit(limit)
                .toList();
    }

}
