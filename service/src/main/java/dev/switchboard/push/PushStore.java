package dev.switchboard.push;

import dev.switchboard.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Push configs and the outbox in the store ({@code push_config}, {@code push_outbox}). Calls block: run them on
 * worker threads. Replicas share the outbox: one that takes an entry moves its {@code next_at} on first (a lease),
 * and only the replica whose move succeeded sends it.
 */
public final class PushStore {

    private static final String CONFIG_COLUMNS = "callback_id, agent_id, task_id, config_id, caller_id, version, url, "
            + "token, auth, secret, created_at";

    private final DataSource dataSource;

    public PushStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Saves a config, replacing the task's config of the same id (its callback and secret go with it). */
    public void save(PushConfig c) {
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try (PreparedStatement del = conn.prepareStatement(
                    "DELETE FROM push_config WHERE agent_id = ? AND task_id = ? AND config_id = ?");
                    PreparedStatement ins = conn.prepareStatement("INSERT INTO push_config (" + CONFIG_COLUMNS
                            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                del.setString(1, c.agentId());
                del.setString(2, c.taskId());
                del.setString(3, c.configId());
                del.executeUpdate();
                int i = 1;
                for (String v : new String[] {c.callbackId(), c.agentId(), c.taskId(), c.configId(), c.callerId(),
                        c.version(), c.url(), c.token(), c.authJson(), c.secret()}) {
                    ins.setString(i++, v);
                }
                ins.setLong(i, c.createdAtMillis());
                ins.executeUpdate();
                conn.commit();
            } catch (SQLException e) {
                conn.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot save a push config", e);
        }
    }

    public Optional<PushConfig> byCallback(String callbackId) {
        List<PushConfig> found = configs("WHERE callback_id = ?", callbackId);
        return found.stream().findFirst();
    }

    public Optional<PushConfig> find(String agentId, String taskId, String configId) {
        return configs("WHERE agent_id = ? AND task_id = ? AND config_id = ?", agentId, taskId, configId).stream()
                .findFirst();
    }

    /** The task's configs, oldest first. */
    public List<PushConfig> list(String agentId, String taskId) {
        return configs("WHERE agent_id = ? AND task_id = ? ORDER BY created_at, config_id", agentId, taskId);
    }

    /** Counts a task's configs (a caller may set only so many). */
    public int count(String agentId, String taskId) {
        return list(agentId, taskId).size();
    }

    public boolean delete(String agentId, String taskId, String configId) {
        return update("DELETE FROM push_config WHERE agent_id = ? AND task_id = ? AND config_id = ?",
                agentId, taskId, configId) > 0;
    }

    /**
     * Keeps a notification for delivery; false when the same body for the same callback is held already (the agent
     * sent it again): it is delivered once.
     */
    public boolean enqueue(String callbackId, String body, String contentType, long nowMillis) {
        String digest = sha256(body);
        try (Connection conn = dataSource.getConnection();
                PreparedStatement s = conn.prepareStatement("INSERT INTO push_outbox (id, callback_id, digest, body, "
                        + "content_type, state, attempts, next_at, created_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?) "
                        + "ON CONFLICT (callback_id, digest) DO NOTHING")) {
            s.setString(1, UUID.randomUUID().toString());
            s.setString(2, callbackId);
            s.setString(3, digest);
            s.setString(4, body);
            s.setString(5, contentType);
            s.setLong(6, nowMillis);
            s.setLong(7, nowMillis);
            return s.executeUpdate() > 0;
        } catch (SQLException e) {
            throw new StoreException("cannot keep a push notification", e);
        }
    }

    /**
     * Takes up to {@code limit} pending entries due at {@code nowMillis}, oldest first, each leased to this caller until
     * {@code leaseUntilMillis} (another replica's take of the same entry finds it moved and skips it).
     */
    public List<OutboxEntry> takeDue(long nowMillis, long leaseUntilMillis, int limit) {
        List<OutboxEntry> due = new ArrayList<>();
        try (Connection conn = dataSource.getConnection();
                PreparedStatement s = conn.prepareStatement("SELECT id, callback_id, body, content_type, attempts, next_at "
                        + "FROM push_outbox WHERE state = 'pending' AND next_at <= ? ORDER BY next_at, created_at LIMIT ?")) {
            s.setLong(1, nowMillis);
            s.setInt(2, limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    due.add(new OutboxEntry(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getInt(5), rs.getLong(6)));
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read the push outbox", e);
        }
        List<OutboxEntry> taken = new ArrayList<>(due.size());
        for (OutboxEntry e : due) {
            if (update("UPDATE push_outbox SET next_at = ? WHERE id = ? AND state = 'pending' AND next_at = ?",
                    leaseUntilMillis, e.id(), e.nextAtMillis()) > 0) {
                taken.add(e);
            }
        }
        return taken;
    }

    public void delivered(String id) {
        update("UPDATE push_outbox SET state = 'delivered', attempts = attempts + 1 WHERE id = ?", id);
    }

    /** A failed attempt: the entry is tried again at {@code nextAtMillis}. */
    public void retry(String id, long nextAtMillis) {
        update("UPDATE push_outbox SET attempts = attempts + 1, next_at = ? WHERE id = ?", nextAtMillis, id);
    }

    /** Given up (attempts exhausted, or its config is gone). */
    public void dropped(String id) {
        update("UPDATE push_outbox SET state = 'dropped', attempts = attempts + 1 WHERE id = ?", id);
    }

    /** Forgets delivered and dropped entries kept since before {@code beforeMillis} (their de-duplication ends). */
    public int purge(long beforeMillis) {
        return update("DELETE FROM push_outbox WHERE state <> 'pending' AND created_at < ?", beforeMillis);
    }

    /** Entries by state, for tests and metrics: pending, delivered, dropped. */
    public int count(String state) {
        try (Connection conn = dataSource.getConnection();
                PreparedStatement s = conn.prepareStatement("SELECT COUNT(*) FROM push_outbox WHERE state = ?")) {
            s.setString(1, state);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new StoreException("cannot count the push outbox", e);
        }
    }

    private List<PushConfig> configs(String where, String... args) {
        List<PushConfig> out = new ArrayList<>();
        try (Connection conn = dataSource.getConnection();
                PreparedStatement s = conn.prepareStatement("SELECT " + CONFIG_COLUMNS + " FROM push_config " + where)) {
            for (int i = 0; i < args.length; i++) {
                s.setString(i + 1, args[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new PushConfig(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9),
                            rs.getString(10), rs.getLong(11)));
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read push configs", e);
        }
        return out;
    }

    private int update(String sql, Object... args) {
        try (Connection conn = dataSource.getConnection(); PreparedStatement s = conn.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            return s.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot update the push store", e);
        }
    }

    static String sha256(String body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
