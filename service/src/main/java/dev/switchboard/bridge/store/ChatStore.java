package dev.switchboard.bridge.store;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Threads, posts and engine sessions in the embedded store. Every method blocks: callers run it off
 * the event loop. {@link #saveSession} is called after each engine step and before its effects run,
 * which is what makes turns survive a crash (B14).
 */
public final class ChatStore {

    private final DataSource dataSource;

    public ChatStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    // ---- threads ----

    public void createThread(ChatThread t) {
        update("INSERT INTO chat_thread (thread_id, platform, channel, binding, title, created_at, last_activity) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)", t.threadId(), t.platform(), t.channel(), t.binding(), t.title(),
                t.createdAt().toString(), t.lastActivity().toString());
    }

    public Optional<ChatThread> thread(String threadId) {
        List<ChatThread> found = threads("SELECT * FROM chat_thread WHERE thread_id = ?", threadId);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    public List<ChatThread> threads(String platform, String channel, int limit) {
        return threads("SELECT * FROM chat_thread WHERE platform = ? AND channel = ? ORDER BY last_activity DESC LIMIT ?",
                platform, channel, limit);
    }

    private List<ChatThread> threads(String sql, Object... args) {
        return query(sql, rs -> new ChatThread(rs.getString("thread_id"), rs.getString("platform"),
                rs.getString("channel"), rs.getString("binding"), rs.getString("title"),
                Instant.parse(rs.getString("created_at")), Instant.parse(rs.getString("last_activity"))), args);
    }

    // ---- posts ----

    public Optional<Post> post(String postId) {
        List<Post> found = query("SELECT * FROM chat_post WHERE post_id = ?", ChatStore::post, postId);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    public List<Post> posts(String threadId) {
        return query("SELECT * FROM chat_post WHERE thread_id = ? ORDER BY seq", ChatStore::post, threadId);
    }

    private Post appendIn(Connection c, String threadId, String postId, String kind, String text, Actor author,
            String turnMessageId, String state, Instant now) throws SQLException {
        long seq;
        try (PreparedStatement s = c.prepareStatement("SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_post WHERE thread_id = ?")) {
            s.setString(1, threadId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                seq = rs.getLong(1);
            }
        }
        updateIn(c, "INSERT INTO chat_post (post_id, thread_id, seq, kind, text, author_id, author_name, author_email, "
                        + "turn_message_id, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                postId, threadId, seq, kind, text, author == null ? null : author.id(), author == null ? null : author.name(),
                author == null ? null : author.email(), turnMessageId, state, now.toString(), now.toString());
        updateIn(c, "UPDATE chat_thread SET last_activity = ? WHERE thread_id = ?", now.toString(), threadId);
        return new Post(postId, threadId, seq, kind, text, author, turnMessageId, state, now, now);
    }

    private Post postIn(Connection c, String postId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT * FROM chat_post WHERE post_id = ?")) {
            s.setString(1, postId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? post(rs) : null;
            }
        }
    }

    private static Post post(ResultSet rs) throws SQLException {
        String authorId = rs.getString("author_id");
        Actor author = authorId == null ? null : new Actor(authorId, rs.getString("author_name"), rs.getString("author_email"));
        return new Post(rs.getString("post_id"), rs.getString("thread_id"), rs.getLong("seq"), rs.getString("kind"),
                rs.getString("text"), author, rs.getString("turn_message_id"), rs.getString("state"),
                Instant.parse(rs.getString("created_at")), Instant.parse(rs.getString("updated_at")));
    }

    /**
     * Commits one engine step: the session and what its chat effects change in the thread (answer
     * text, notices, questions, turn states), in one transaction, so the thread never disagrees with
     * the session after a crash. A person's message, when the step accepted one, is written with it.
     * Returns the posts created or changed, for publishing after the commit.
     */
    public List<Post> commitStep(String threadId, Session session, List<Effect> effects, Post accepted, Instant now) {
        return inTransaction(c -> {
            List<Post> changed = new ArrayList<>();
            if (accepted != null) {
                changed.add(appendIn(c, threadId, accepted.id(), Post.USER, accepted.text(), accepted.author(),
                        accepted.turnMessageId(), accepted.state(), now));
            }
            for (Effect e : effects) {
                Post p = null;
                if (e instanceof Effect.ShowAnswer a) {
                    String id = "answer-" + a.messageId();
                    int n = updateIn(c, "UPDATE chat_post SET text = ?, updated_at = ? WHERE post_id = ?", a.text(),
                            now.toString(), id);
                    p = n == 0 ? appendIn(c, threadId, id, Post.AGENT, a.text(), null, a.messageId(), null, now) : postIn(c, id);
                } else if (e instanceof Effect.PostNotice n) {
                    p = appendIn(c, threadId, java.util.UUID.randomUUID().toString(), Post.NOTICE, n.text(), null,
                            n.messageId(), null, now);
                } else if (e instanceof Effect.AskQuestion q) {
                    p = appendIn(c, threadId, java.util.UUID.randomUUID().toString(), Post.QUESTION, q.text(), null,
                            q.messageId(), null, now);
                } else if (e instanceof Effect.TurnStateChanged t) {
                    // the turn's own post and the answers to its questions all show the turn's state
                    String state = t.state().name().toLowerCase(java.util.Locale.ROOT);
                    // a reply first taken as an answer may become a turn of its own: it then follows its own state
                    updateIn(c, "UPDATE chat_post SET turn_message_id = post_id WHERE kind = 'user' AND post_id = ?",
                            t.messageId());
                    updateIn(c, "UPDATE chat_post SET state = ?, updated_at = ? WHERE kind = 'user' AND turn_message_id = ?",
                            state, now.toString(), t.messageId());
                    try (PreparedStatement s = c.prepareStatement(
                            "SELECT * FROM chat_post WHERE kind = 'user' AND turn_message_id = ?")) {
                        s.setString(1, t.messageId());
                        try (ResultSet rs = s.executeQuery()) {
                            while (rs.next()) {
                                changed.add(post(rs));
                            }
                        }
                    }
                }
                if (p != null) {
                    changed.add(p);
                }
            }
            saveSessionIn(c, threadId, session, now);
            return changed;
        });
    }

    // ---- sessions ----

    public Optional<Session> session(String threadId) {
        List<Session> found = query("SELECT state FROM bridge_session WHERE thread_id = ?",
                rs -> readSession(rs.getString(1)), threadId);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /** Threads whose sessions have unfinished turns: recovered at start. */
    public Map<String, Session> pendingSessions() {
        Map<String, Session> out = new java.util.LinkedHashMap<>();
        query("SELECT thread_id, state FROM bridge_session WHERE pending = 1 ORDER BY updated_at", rs -> {
            out.put(rs.getString(1), readSession(rs.getString(2)));
            return null;
        });
        return out;
    }

    private void saveSessionIn(Connection c, String threadId, Session session, Instant now) throws SQLException {
        String json = SessionFormat.write(session);
        updateIn(c, "INSERT INTO bridge_session (thread_id, state, pending, updated_at) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (thread_id) DO UPDATE SET state = excluded.state, pending = excluded.pending, "
                + "updated_at = excluded.updated_at", threadId, json, session.idle() ? 0 : 1, now.toString());
    }

    private static Session readSession(String json) {
        try {
            return SessionFormat.read(json);
        } catch (RuntimeException e) {
            throw new StoreException("cannot read a stored session", e);
        }
    }

    // ---- JDBC plumbing ----

    private interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> List<T> query(String sql, RowMapper<T> mapper, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, args);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    T v = mapper.map(rs);
                    if (v != null) {
                        out.add(v);
                    }
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreException("query failed: " + sql.split(" WHERE")[0], e);
        }
    }

    private void update(String sql, Object... args) {
        inTransaction(c -> updateIn(c, sql, args));
    }

    private static int updateIn(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, args);
            return s.executeUpdate();
        }
    }

    private <T> T inTransaction(Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        } catch (SQLException e) {
            throw new StoreException("store write failed", e);
        }
    }

    private static void bind(PreparedStatement s, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            s.setObject(i + 1, args[i]);
        }
    }
}
