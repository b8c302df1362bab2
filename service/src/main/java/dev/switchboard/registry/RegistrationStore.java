package dev.switchboard.registry;

import java.util.List;

/** Where dynamic registrations survive restarts. Calls block: run them off the event loop. */
public interface RegistrationStore {

    List<RegisteredAgent> loadAll();

    void save(RegisteredAgent agent);

    void delete(String id);
}
