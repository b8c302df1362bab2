package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.store.PostNotification;
import dev.switchboard.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several replicas on one PostgreSQL store (issue 12): which replica drives which chat session. Only on PostgreSQL;
 * with SQLite (one process) there is none of this.
 *
 * <p>Each replica has a random id. A session is driven only by the replica holding its lease (table
 * {@code bridge_lease}), which ends at {@code expires_at} by the database's clock. A replica takes a lease that is free
 * or expired in one statement, renews all of its own in one statement every third of {@code leaseDuration}, and lets a
 * lease go when the session leaves its memory. A replica that dies stops renewing: after {@code leaseDuration} its
 * leases are free, and another replica's scan takes them over. Every step's commit checks the lease (see
 * {@code ChatStore#fence}), so a replica that lost a lease cannot write a step, and so never runs its effects.
 *
 * <p>A message reaching a replica that is not the owner goes to the owner through {@code bridge_inbox} and a
 * {@code NOTIFY switchboard_inbox}; committed posts are announced with {@code NOTIFY switchboard_post} so that every
 * replica's live views (the web chat's SSE streams) show them. Each replica listens on a connection of its own.
 */
public final class SessionLeases implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionLeases.class);
    public static final String POST_CHANNEL = "switchboard_post";
    public static final String INBOX_CHANNEL = "switchboard_inbox";

    private static final String ACQUIRE = "INSERT INTO bridge_lease (thread_id, owner, expires_at) "
            + "VALUES (?, ?, now() + ? * interval '1 millisecond') ON CONFLICT (thread_id) DO UPDATE "
            + "SET owner = excluded.owner, expires_at = excluded.expires_at "
            + "WHERE bridge_lease.expires_at < now() OR bridge_lease.owner = excluded.owner RETURNING thread_id";
    /**
     * Renews the leases no commit of this replica holds right now: a commit's fence holds its lease rows FOR SHARE, in
     * its own order, so a renewal that waited for one of them while holding others could deadlock with it.
     */
    private static final String RENEW = "UPDATE bridge_lease SET expires_at = now() + ? * interval '1 millisecond' "
            + "WHERE owner = ? AND thread_id IN (SELECT thread_id FROM bridge_lease WHERE owner = ? "
            + "AND expires_at >= now() FOR NO KEY UPDATE SKIP LOCKED) RETURNING thread_id";
    /** Renews one lease, waiting for a commit that holds it (and holding no other lease row meanwhile). */
    private static final String RENEW_ONE = "UPDATE bridge_lease SET expires_at = now() + ? * interval '1 millisecond' "
            + "WHERE thread_id = ? AND owner = ? AND expires_at >= now() RETURNING thread_id";
    private static final String RELEASE = "DELETE FROM bridge_lease WHERE thread_id = ? AND owner = ?";
    private static final String RELEASE_ALL = "DELETE FROM bridge_lease WHERE owner = ?";
    private static final String ORPHANS = "SELECT s.thread_id, 1 FROM bridge_session s "
            + "LEFT JOIN bridge_lease l ON l.thread_id = s.thread_id "
            + "WHERE s.pending = 1 AND (l.thread_id IS NULL OR l.expires_at < now()) "
            + "UNION SELECT i.thread_id, 0 FROM bridge_inbox i LEFT JOIN bridge_lease l ON l.thread_id = i.thread_id "
            + "WHERE i.refused_kind IS NULL AND (l.thread_id IS NULL OR l.expires_at < now())";

    /** A session whose lease is free or expired: {@code pending} when it has unfinished turns to recover. */
    public record Orphan(String threadId, boolean pending) {}

    /** A message or structured answer handed to the thread's owner. */
    public record Inbound(String messageId, String threadId, String text, Actor actor, String trace, String questionId,
            String answer) {}

    /** What became of a forwarded message: still waiting, or refused ({@code kind}, {@code text}). */
    public record Refusal(String kind, String text) {}

    private final DataSource dataSource;
    private final Duration leaseDuration;
    private final String replicaId = UUID.randomUUID().toString();
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Object leaseLock = new Object();
    private volatile boolean closed;
    private Thread listener;

    public SessionLeases(DataSource dataSource, Duration leaseDuration) {
        this.dataSource = dataSource;
        this.leaseDuration = leaseDuration;
    }

    public String replicaId() {
        return replicaId;
    }

    public Duration leaseDuration() {
        return leaseDuration;
    }

    /** True while this replica believes it holds the thread's lease (the commit's fence checks it for real). */
    public boolean holds(String threadId) {
        return held.contains(threadId);
    }

    public Set<String> held() {
        return Set.copyOf(held);
    }

    /** Takes the thread's lease when it is free, expired or already ours; true when this replica now holds it. */
    public boolean acquire(String threadId) {
        synchronized (leaseLock) {
            boolean got = !query(ACQUIRE, rs -> rs.getString(1), threadId, replicaId, leaseDuration.toMillis()).isEmpty();
            if (got) {
                held.add(threadId);
            } else {
                held.remove(threadId);
            }
            return got;
        }
    }

    /**
     * Renews every lease of this replica: in one statement those no commit holds at the moment, then one by one the
     * others (waiting for the commit); returns the threads whose lease it no longer holds.
     */
    public Set<String> renew() {
        synchronized (leaseLock) {
            Set<String> kept = new HashSet<>(query(RENEW, rs -> rs.getString(1), leaseDuration.toMillis(), replicaId,
                    replicaId));
            for (String threadId : held) {
                if (!kept.contains(threadId)) {
                    kept.addAll(query(RENEW_ONE, rs -> rs.getString(1), leaseDuration.toMillis(), threadId, replicaId));
                }
            }
            Set<String> lost = new HashSet<>(held);
            lost.removeAll(kept);
            held.removeAll(lost);
            return lost;
        }
    }

    public void release(String threadId) {
        synchronized (leaseLock) {
            held.remove(threadId);
            update(RELEASE, threadId, replicaId);
        }
    }

    /** Lets every lease of this replica go (a clean stop): the others take its sessions over at their next scan. */
    public void releaseAll() {
        synchronized (leaseLock) {
            held.clear();
            update(RELEASE_ALL, replicaId);
        }
    }

    /** Sessions with unfinished turns, and threads with forwarded messages, that no live replica drives. */
    public List<Orphan> orphans() {
        return query(ORPHANS, rs -> new Orphan(rs.getString(1), rs.getInt(2) == 1));
    }

    // ---- the inbox ----

    /** Writes a message for the thread's owner (once per messageId) and tells the owners' listeners. */
    public void forward(Inbound m) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement s = c.prepareStatement("INSERT INTO bridge_inbox (message_id, thread_id, text, "
                        + "author_id, author_name, author_email, trace, question_id, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (message_id) DO NOTHING")) {
                    bind(s, m.messageId(), m.threadId(), m.text(), m.actor() == null ? null : m.actor().id(),
                            m.actor() == null ? null : m.actor().name(), m.actor() == null ? null : m.actor().email(),
                            m.trace(), m.questionId(), m.answer());
                    s.executeUpdate();
                }
                notify(c, INBOX_CHANNEL, m.threadId());
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot forward a message to its thread's owner", e);
        }
    }

    /** The thread's forwarded messages not yet accepted nor refused, oldest first. */
    public List<Inbound> inbox(String threadId) {
        return query("SELECT message_id, thread_id, text, author_id, author_name, author_email, trace, question_id, answer "
                + "FROM bridge_inbox WHERE thread_id = ? AND refused_kind IS NULL ORDER BY seq", rs -> new Inbound(
                        rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4) == null ? null
                        : new Actor(rs.getString(4), rs.getString(5), rs.getString(6)), rs.getString(7), rs.getString(8),
                        rs.getString(9)), threadId);
    }

    /** The forwarded message is a post now. */
    public void accepted(String messageId) {
        update("DELETE FROM bridge_inbox WHERE message_id = ? AND refused_kind IS NULL", messageId);
    }

    public void refused(String messageId, String kind, String text) {
        update("UPDATE bridge_inbox SET refused_kind = ?, refused_text = ? WHERE message_id = ?", kind, text, messageId);
    }

    /** The refusal of a forwarded message, taken (the row goes); null while none. */
    public Refusal takeRefusal(String messageId) {
        List<Refusal> r = query("DELETE FROM bridge_inbox WHERE message_id = ? AND refused_kind IS NOT NULL "
                + "RETURNING refused_kind, refused_text", rs -> new Refusal(rs.getString(1), rs.getString(2)), messageId);
        return r.isEmpty() ? null : r.get(0);
    }

    // ---- notifications ----

    private static void notify(Connection c, String channel, String payload) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            bind(s, channel, payload);
            s.executeQuery().close();
        }
    }

    /**
     * Listens on a connection of its own: {@code onPost} gets the thread and id of each post another replica changed
     * (the id null when it was too long to tell: then any of the thread's posts may have changed), {@code onInbox} the
     * thread of each forwarded message. Both run on the listener's thread.
     */
    public synchronized void listen(java.util.function.BiConsumer<String, String> onPost, Consumer<String> onInbox) {
        listener = new Thread(() -> {
            while (!closed) {
                try (Connection c = dataSource.getConnection()) {
                    try (Statement s = c.createStatement()) {
                        s.execute("LISTEN " + POST_CHANNEL);
                        s.execute("LISTEN " + INBOX_CHANNEL);
                    }
                    PGConnection pg = c.unwrap(PGConnection.class);
                    while (!closed) {
                        PGNotification[] got = pg.getNotifications(500);
                        if (got == null) {
                            continue;
                        }
                        for (PGNotification n : got) {
                            try {
                                if (POST_CHANNEL.equals(n.getName())) {
                                    PostNotification.parse(n.getParameter())
                                            .filter(p -> !p.replica().equals(replicaId))
                                            .ifPresent(p -> onPost.accept(p.threadId(), p.postId()));
                                } else if (INBOX_CHANNEL.equals(n.getName())) {
                                    onInbox.accept(n.getParameter());
                                }
                            } catch (RuntimeException e) {
                                LOG.warn("bridge: a notification on {} failed: {}", n.getName(), e.toString());
                            }
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    if (closed) {
                        return;
                    }
                    LOG.warn("bridge: the store's notifications were interrupted ({}); listening again", e.toString());
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }, "bridge-replica-listener");
        listener.setDaemon(true);
        listener.start();
    }

    /** Stops listening; leases are left as they are (see {@link #releaseAll}). */
    @Override
    public void close() {
        closed = true;
        Thread l;
        synchronized (this) {
            l = listener;
        }
        if (l != null) {
            try {
                l.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- JDBC ----

    private interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private <T> List<T> query(String sql, Row<T> row, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, args);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(row.map(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreException("lease query failed: " + sql.split(" ")[0], e);
        }
    }

    private void update(String sql, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, args);
            s.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("lease update failed: " + sql.split(" ")[0], e);
        }
    }

    private static void bind(PreparedStatement s, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            s.setObject(i + 1, args[i]);
        }
    }
}
