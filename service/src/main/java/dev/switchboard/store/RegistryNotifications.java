package dev.switchboard.store;

import dev.switchboard.registry.AgentRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a replica's registry in line with a shared PostgreSQL store (issue 12): LISTENs, on a connection of its
 * own, to the {@code switchboard_registry} channel that a trigger on {@code agent_registration} notifies (migration
 * V9), and applies each change to the in-memory view ({@code R id}: reload the agent; {@code S id last_seen}: a
 * heartbeat). The gateway's reads stay in memory: no query per call. On every (re)connect it LISTENs first and then
 * reloads everything, so nothing changed while it was away is missed. Runs on a daemon thread of its own.
 */
public final class RegistryNotifications implements AutoCloseable {

    public static final String CHANNEL = "switchboard_registry";
    private static final Logger LOG = LoggerFactory.getLogger(RegistryNotifications.class);
    private static final int POLL_MILLIS = 500;

    private final Database database;
    private final AgentRegistry registry;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Connection current;

    private RegistryNotifications(Database database, AgentRegistry registry) {
        this.database = database;
        this.registry = registry;
        this.thread = new Thread(this::run, "switchboard-registry-listen");
        thread.setDaemon(true);
    }

    /** Starts listening in the background (it retries, with a full reload, when the connection is lost). */
    public static RegistryNotifications start(Database database, AgentRegistry registry) {
        RegistryNotifications n = new RegistryNotifications(database, registry);
        n.thread.start();
        return n;
    }

    private void run() {
        long backoff = 200;
        while (running) {
            try (Connection c = database.openDedicatedConnection(); Statement s = c.createStatement()) {
                current = c;
                s.execute("LISTEN " + CHANNEL);
                registry.reloadAll();
                backoff = 200;
                PGConnection pg = c.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(POLL_MILLIS);
                    if (notifications == null) {
                        continue;
                    }
                    for (PGNotification n : notifications) {
                        apply(n.getParameter());
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.warn("registry notifications: connection lost ({}); reconnecting, then reloading every registration",
                        e.getMessage());
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    return;
                }
                backoff = Math.min(5_000, backoff * 2);
            } finally {
                current = null;
            }
        }
    }

    private void apply(String payload) {
        if (payload == null || payload.length() < 3) {
            return;
        }
        String rest = payload.substring(2);
        switch (payload.charAt(0)) {
            case 'R' -> registry.refresh(rest);
            case 'S' -> {
                int space = rest.indexOf(' ');
                if (space < 0) {
                    registry.refresh(rest);
                    return;
                }
                String id = rest.substring(0, space);
                try {
                    registry.seen(id, Instant.parse(rest.substring(space + 1)));
                } catch (DateTimeParseException e) {
                    registry.refresh(id);
                }
            }
            default -> LOG.debug("registry notifications: ignored '{}'", payload);
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(POLL_MILLIS * 4L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Connection c = current;
        if (c != null && thread.isAlive()) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }
}
