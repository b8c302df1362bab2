package dev.switchboard.registry;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where dynamic registrations survive restarts. Calls block: run them off the event loop. */
public interface RegistrationStore {

    List<RegisteredAgent> loadAll();

    void save(RegisteredAgent agent);

    void delete(String id);

    /** One registration as stored; empty when there is none (a shared store: another replica may have removed it). */
    default Optional<RegisteredAgent> load(String id) {
        return loadAll().stream().filter(a -> a.id().equals(id)).findFirst();
    }

    /** Moves {@code last_seen} of a stored registration; false when there is none. */
    default boolean touch(String id, Instant lastSeen) {
        Optional<RegisteredAgent> a = load(id);
        a.ifPresent(r -> save(r.seenAt(lastSeen)));
        return a.isPresent();
    }

    /** Deletes, in one atomic step, the registrations last seen before {@code cutoff}; their ids. */
    default List<String> deleteSeenBefore(Instant cutoff) {
        List<String> gone = loadAll().stream().filter(a -> a.lastSeen().isBefore(cutoff)).map(RegisteredAgent::id).toList();
        gone.forEach(this::delete);
        return gone;
    }

    /** The agent as {@link #load} would read it back: what the store keeps of it. */
    default RegisteredAgent asStored(RegisteredAgent agent) {
        return agent;
    }
}
