package dev.switchboard.app;

import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.store.Database;
import dev.switchboard.store.SqlRegistrationStore;
import dev.switchboard.store.StoreLock;
import java.time.Instant;

/**
 * What start-up opens on a worker thread while the port is being bound: the store (migrated), the registry over it
 * with the configuration's agents in it, and on SQLite the lock that keeps a second Switchboard off the file.
 */
record OpenedStore(Database database, AgentRegistry registry, StoreLock lock) {

    /** Blocks: connects, migrates and fills the registry; what it opened is closed again when a step fails. */
    static OpenedStore open(SwitchboardConfig config, Instant now) {
        // the PostgreSQL password, when the config names one: never logged, never in a message
        String storePassword = config.server().storePasswordSecretRef() == null ? null
                : config.secret(config.server().storePasswordSecretRef()).orElse(null);
        // one process per SQLite file: refused before anything touches the file
        StoreLock lock = StoreLock.acquire(config.server().store());
        Database db;
        try {
            db = Database.open(config.server().store(), storePassword);
        } catch (RuntimeException e) {
            if (lock != null) {
                lock.close();
            }
            throw e;
        }
        try {
            boolean shared = db.dialect() == Database.Dialect.POSTGRESQL;
            AgentRegistry registry = new AgentRegistry(new SqlRegistrationStore(db.dataSource()),
                    config.server().registrationTtl(), config.server().registry().maxRegistrations(), shared);
            for (AgentBackendSpec b : config.backends()) {
                registry.putConfigured(ConfiguredAgents.fromConfig(b, config, now));
            }
            return new OpenedStore(db, registry, lock);
        } catch (RuntimeException e) {
            db.close();
            if (lock != null) {
                lock.close();
            }
            throw e;
        }
    }

    /** The store and its lock are let go: start-up failed elsewhere (the port), or the app closes. */
    void close() {
        try {
            database.close();
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }
}
