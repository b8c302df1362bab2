package dev.switchboard.registry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The agents behind the gateway: those of the config file and those registered over the API. Dynamic
 * registrations are written to the {@link RegistrationStore} before they are visible, so a restart
 * keeps them; they expire after {@code ttl} without a heartbeat. A limiter per agent id outlives
 * re-registrations, so re-registering an agent never resets its in-flight count; it goes, with
 * whatever else {@link #onRemoved listeners} keep per agent, when the agent is removed.
 *
 * <p>Every write of one id (register, heartbeat, deregister, expire) runs inside the map's
 * {@code compute} for that id, store call included: two writes of one id never interleave, so the
 * store and the map cannot disagree. The store calls block; writers run on worker threads, while
 * readers ({@link #find}) never wait for them.
 *
 * <p><b>Shared store</b> (PostgreSQL, several replicas, issue 12): the store is the truth and the map is this
 * replica's view of it, kept current by the store's change notifications ({@link #refresh}, {@link #seen},
 * {@link #reloadAll}), so readers still never query the store. A heartbeat updates the stored {@code last_seen}
 * only if the row is still there; expiry is one atomic {@code DELETE … RETURNING} that any replica may run (each
 * row goes once), and every replica drops the expired agents through the notification of that delete.
 */
public final class AgentRegistry {

    /** A new dynamic registration over {@code registry.maxRegistrations}. */
    public static final class RegistryFull extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int limit;

        RegistryFull(int limit) {
            super("the registry holds its maximum of " + limit + " dynamic registrations (registry.maxRegistrations)",
                    null, false, false);
            this.limit = limit;
        }

        public int limit() {
            return limit;
        }
    }

    private final ConcurrentHashMap<String, RegisteredAgent> agents = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ConcurrencyLimiter> limiters = new ConcurrentHashMap<>();
    private final List<Consumer<String>> removalListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> changeListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> anyChangeListeners = new CopyOnWriteArrayList<>();
    private final boolean shared;
    /** Dynamic registrations held; changed only inside a compute, checked against the cap there. */
    private final AtomicInteger dynamicCount = new AtomicInteger();
    private final RegistrationStore store;
    private final Duration ttl;
    private final int maxRegistrations;

    public AgentRegistry(RegistrationStore store, Duration ttl) {
        this(store, ttl, RegistrySettings.DEFAULTS.maxRegistrations());
    }

    public AgentRegistry(RegistrationStore store, Duration ttl, int maxRegistrations) {
        this(store, ttl, maxRegistrations, false);
    }

    /** {@code shared}: other replicas write the same store (see the class comment). */
    public AgentRegistry(RegistrationStore store, Duration ttl, int maxRegistrations, boolean shared) {
        this.shared = shared;
        this.store = store;
        this.ttl = ttl;
        this.maxRegistrations = maxRegistrations;
        for (RegisteredAgent a : store.loadAll()) {
            agents.put(a.id(), a);
            dynamicCount.incrementAndGet();
        }
    }

    public Duration ttl() {
        return ttl;
    }

    /** Called with the id of every agent removed (deregistered or expired), after the removal. */
    public void onRemoved(Consumer<String> listener) {
        removalListeners.add(listener);
    }

    /** Called with the id of every agent another replica added or changed, once this view has it. */
    public void onChanged(Consumer<String> listener) {
        changeListeners.add(listener);
    }

    /**
     * Called with the id of every agent added, changed or removed, whoever changed it: a registration (new or
     * again), a deregistration, an expiry, the configuration (at start and in watch mode), another replica. A
     * heartbeat is no change. Runs on the writer's thread, after the change.
     */
    public void onAnyChange(Consumer<String> listener) {
        anyChangeListeners.add(listener);
    }

    private void anyChange(String id) {
        anyChangeListeners.forEach(l -> l.accept(id));
    }

    public boolean shared() {
        return shared;
    }

    /**
     * Brings one agent of this view in line with the store (a change notification named it): reloaded when stored,
     * dropped when not. Config-file agents are not stored and stay as they are.
     */
    public void refresh(String id) {
        boolean[] removed = {false};
        boolean[] changed = {false};
        agents.compute(id, (k, existing) -> {
            if (existing != null && existing.origin() == AgentOrigin.CONFIG) {
                return existing;
            }
            Optional<RegisteredAgent> stored = store.load(k);
            if (stored.isEmpty()) {
                if (existing != null) {
                    dynamicCount.decrementAndGet();
                    removed[0] = true;
                }
                return null;
            }
            if (existing == null) {
                dynamicCount.incrementAndGet();
            } else if (store.asStored(existing).equals(stored.get())) {
                return existing; // this replica's own write, come back
            }
            changed[0] = true;
            return stored.get();
        });
        if (removed[0]) {
            removed(id);
        } else if (changed[0]) {
            changeListeners.forEach(l -> l.accept(id));
            anyChange(id);
        }
    }

    /** Another replica recorded a heartbeat: only {@code last_seen} moved. */
    public void seen(String id, Instant lastSeen) {
        agents.computeIfPresent(id, (k, existing) -> existing.origin() == AgentOrigin.DYNAMIC
                && existing.lastSeen().isBefore(lastSeen) ? existing.seenAt(lastSeen) : existing);
    }

    /** Reloads every dynamic agent from the store (at start of listening, and after a lost connection). */
    public void reloadAll() {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (RegisteredAgent a : store.loadAll()) {
            ids.add(a.id());
        }
        for (RegisteredAgent a : agents.values()) {
            if (a.origin() == AgentOrigin.DYNAMIC) {
                ids.add(a.id());
            }
        }
        ids.forEach(this::refresh);
    }

    /** Config-file agents replace whatever had the same id; they are not stored (the file is their store). */
    public void putConfigured(RegisteredAgent agent) {
        agents.compute(agent.id(), (id, existing) -> {
            store.delete(id);
            if (existing != null && existing.origin() == AgentOrigin.DYNAMIC) {
                dynamicCount.decrementAndGet();
            }
            return agent;
        });
        anyChange(agent.id());
    }

    /**
     * Removes an agent of the configuration (its resource was deleted in watch mode); false when there is no such
     * configured agent. The removal listeners run, as for a deregistration.
     */
    public boolean removeConfigured(String id) {
        boolean[] removed = {false};
        agents.computeIfPresent(id, (k, existing) -> {
            if (existing.origin() != AgentOrigin.CONFIG) {
                return existing;
            }
            removed[0] = true;
            return null;
        });
        if (removed[0]) {
            removed(id);
        }
        return removed[0];
    }

    public Optional<RegisteredAgent> find(String id) {
        return Optional.ofNullable(agents.get(id));
    }

    public ConcurrencyLimiter limiter(String id) {
        return limiters.computeIfAbsent(id, k -> new ConcurrencyLimiter());
    }

    /**
     * Registers or re-registers a dynamic agent. Re-registering keeps {@code registered_at} and
     * refreshes {@code last_seen}. A config-file agent cannot be overwritten over the API
     * (IllegalStateException); a new id over the cap is refused with {@link RegistryFull}.
     */
    public RegisteredAgent register(RegisteredAgent requested, Instant now) {
        RegisteredAgent registered = agents.compute(requested.id(), (id, existing) -> {
            if (existing != null && existing.origin() == AgentOrigin.CONFIG) {
                throw new IllegalStateException("agent_id " + id + " is defined in the configuration file and cannot be re-registered");
            }
            if (existing == null && dynamicCount.incrementAndGet() > maxRegistrations) {
                dynamicCount.decrementAndGet();
                throw new RegistryFull(maxRegistrations);
            }
            Instant registeredAt = existing != null ? existing.registeredAt() : now;
            RegisteredAgent agent = new RegisteredAgent(id, requested.name(), requested.url(),
                    requested.description(), requested.version(), requested.skills(), requested.defaultInputModes(),
                    requested.defaultOutputModes(), requested.protocolVersions(), requested.headers(),
                    requested.limits(), AgentOrigin.DYNAMIC, registeredAt, now);
            try {
                store.save(agent);
            } catch (RuntimeException e) {
                if (existing == null) {
                    dynamicCount.decrementAndGet();
                }
                throw e;
            }
            return agent;
        });
        anyChange(registered.id());
        return registered;
    }

    /** Updates last_seen; empty when the agent is unknown. */
    public Optional<RegisteredAgent> heartbeat(String id, Instant now) {
        if (shared) {
            return sharedHeartbeat(id, now);
        }
        return Optional.ofNullable(agents.computeIfPresent(id, (k, existing) -> {
            RegisteredAgent seen = existing.seenAt(now);
            if (seen.origin() == AgentOrigin.DYNAMIC) {
                store.save(seen);
            }
            return seen;
        }));
    }

    /** A heartbeat moves the stored last_seen only while the row is there: one another replica expired stays gone. */
    private Optional<RegisteredAgent> sharedHeartbeat(String id, Instant now) {
        if (!agents.containsKey(id)) {
            refresh(id); // registered on another replica a moment ago, its notification not yet here
        }
        boolean[] removed = {false};
        RegisteredAgent seen = agents.computeIfPresent(id, (k, existing) -> {
            if (existing.origin() == AgentOrigin.CONFIG) {
                return existing.seenAt(now);
            }
            if (!store.touch(k, now)) {
                dynamicCount.decrementAndGet();
                removed[0] = true;
                return null;
            }
            return existing.seenAt(now);
        });
        if (removed[0]) {
            removed(id);
        }
        return Optional.ofNullable(seen);
    }

    /** Removes a dynamic agent; false when unknown. Config-file agents cannot be removed over the API. */
    public boolean deregister(String id) {
        if (shared && !agents.containsKey(id)) {
            refresh(id);
        }
        boolean[] removed = {false};
        agents.computeIfPresent(id, (k, existing) -> {
            if (existing.origin() == AgentOrigin.CONFIG) {
                throw new IllegalStateException("agent_id " + id + " is defined in the configuration file and cannot be deregistered");
            }
            store.delete(k);
            dynamicCount.decrementAndGet();
            removed[0] = true;
            return null;
        });
        if (removed[0]) {
            removed(id);
        }
        return removed[0];
    }

    /** Drops dynamic agents whose last heartbeat is older than the TTL; returns their ids. */
    public List<String> expire(Instant now) {
        if (shared) {
            // one atomic statement: whichever replica runs it deletes each expired row once; this view and the
            // others drop them through the delete's notifications, and here at once
            List<String> deleted = store.deleteSeenBefore(now.minus(ttl));
            deleted.forEach(this::refresh);
            return deleted;
        }
        List<String> expired = new ArrayList<>();
        for (RegisteredAgent candidate : agents.values()) {
            if (!isExpired(candidate, now)) {
                continue;
            }
            // decided again on the current value: a heartbeat or re-registration may have come in since
            agents.computeIfPresent(candidate.id(), (id, current) -> {
                if (!isExpired(current, now)) {
                    return current;
                }
                store.delete(id);
                dynamicCount.decrementAndGet();
                expired.add(id);
                return null;
            });
        }
        expired.forEach(this::removed);
        return expired;
    }

    private boolean isExpired(RegisteredAgent a, Instant now) {
        return a.origin() == AgentOrigin.DYNAMIC && a.lastSeen().plus(ttl).isBefore(now);
    }

    /**
     * Drops what was kept for a removed agent, unless it came back meanwhile. Calls still in flight
     * hold their permit of the old limiter and release it there.
     */
    private void removed(String id) {
        if (agents.containsKey(id)) {
            return;
        }
        limiters.remove(id);
        removalListeners.forEach(l -> l.accept(id));
        anyChange(id);
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
