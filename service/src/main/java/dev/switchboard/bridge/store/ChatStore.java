package dev.switchboard.bridge.store;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.store.Database;
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
    private final java.util.concurrent.locks.ReentrantLock writeLock = new java.util.concurrent.locks.ReentrantLock();
    /** the connection every write goes through, and its prepared statements; guarded by {@link #writeLock} */
    private Connection writer;
    private final Map<String, PreparedStatement> statements = new java.util.HashMap<>();
    /** the store's SQL dialect, read from the writer when it is opened; guarded by {@link #writeLock} */
    private Database.Dialect dialect = Database.Dialect.SQLITE;
    private final java.util.concurrent.atomic.AtomicLong sessionWrites = new java.util.concurrent.atomic.AtomicLong();

    /** the replica whose lease every step's commit must find (issue 12); null with one process (SQLite) */
    private volatile String fenceOwner;

    public ChatStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Several replicas on PostgreSQL: from now on a step commits only while replica {@code replicaId} holds the thread's
     * lease (the row is locked for the transaction, so it cannot be taken over meanwhile), and the posts it changed are
     * announced to the other replicas ({@link PostNotification}; sent at commit).
     */
    public void fence(String replicaId) {
        this.fenceOwner = replicaId;
    }

    // ---- threads ----

    public void createThread(ChatThread t) {
        update(ChatSql.INSERT_THREAD, t.threadId(), t.platform().configName(), t.channel(), t.binding(), t.title(),
                t.createdAt().toString(), t.lastActivity().toString());
    }

    /** The thread with this id: the one stored, or {@code t} stored now (a platform whose thread ids it derives). */
    public ChatThread ensureThread(ChatThread t) {
        update(ChatSql.INSERT_THREAD + " ON CONFLICT (thread_id) DO NOTHING", t.threadId(), t.platform().configName(),
                t.channel(), t.binding(), t.title(), t.createdAt().toString(), t.lastActivity().toString());
        return thread(t.threadId()).orElseThrow();
    }

    public Optional<ChatThread> thread(String threadId) {
        List<ChatThread> found = threads(ChatSql.THREAD_BY_ID, threadId);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    public List<ChatThread> threads(Platform platform, String channel, int limit) {
        return threads(ChatSql.THREADS_OF_CHANNEL, platform.configName(), channel, limit);
    }

    private List<ChatThread> threads(String sql, Object... args) {
        return query(sql, rs -> new ChatThread(rs.getString("thread_id"), Platform.fromConfig(rs.getString("platform")),
                rs.getString("channel"), rs.getString("binding"), rs.getString("title"),
                Instant.parse(rs.getString("created_at")), Instant.parse(rs.getString("last_activity"))), args);
    }

    // ---- posts ----

    public Optional<Post> post(String postId) {
        List<Post> found = query(ChatSql.POST_BY_ID, ChatStore::post, postId);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /** The post {@code postId} when it is one of thread {@code threadId}'s. */
    public Optional<Post> post(String threadId, String postId) {
        List<Post> found = query(ChatSql.POST_IN_THREAD, ChatStore::post, postId, threadId);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    public List<Post> posts(String threadId) {
        return query(ChatSql.POSTS_OF_THREAD, ChatStore::post, threadId);
    }

    /** Appends a post; the thread's last_activity is moved once per commit, by the caller. */
    private Post appendIn(Connection c, String threadId, String postId, String kind, String text, Actor author,
            String turnMessageId, String state, Instant now) throws SQLException {
        return appendIn(c, threadId, postId, kind, text, author, turnMessageId, state, now, null);
    }

    private Post appendIn(Connection c, String threadId, String postId, String kind, String text, Actor author,
            String turnMessageId, String state, Instant now, String answerParts) throws SQLException {
        return appendIn(c, ChatSql.APPEND_POST, threadId, postId, kind, text, author, turnMessageId, state, now,
                answerParts, null);
    }

    /** Appends a post with {@code sql} (APPEND_POST or APPEND_POST_ONCE); null when the ONCE form found it there. */
    private Post appendIn(Connection c, String sql, String threadId, String postId, String kind, String text, Actor author,
            String turnMessageId, String state, Instant now, String answerParts, String data) throws SQLException {
        long seq;
        PreparedStatement s = statement(c, sql);
        bind(s, postId, threadId, kind, text, author == null ? null : author.id(), author == null ? null : author.name(),
                author == null ? null : author.email(), turnMessageId, state, now.toString(), now.toString(), answerParts,
                data, threadId);
        try (ResultSet rs = s.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            seq = rs.getLong(1);
        }
        return new Post(postId, threadId, seq, kind, text, author, turnMessageId, state, now, now, data);
    }

    /** Runs an UPDATE … RETURNING * and adds the posts it changed to {@code out}; false when it changed none. */
    private boolean updateReturning(Connection c, List<Post> out, String sql, Object... args) throws SQLException {
        boolean any = false;
        PreparedStatement s = statement(c, sql);
        bind(s, args);
        try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                out.add(post(rs));
                any = true;
            }
        }
        return any;
    }

    private static Post post(ResultSet rs) throws SQLException {
        String authorId = rs.getString("author_id");
        Actor author = authorId == null ? null : new Actor(authorId, rs.getString("author_name"), rs.getString("author_email"));
        return new Post(rs.getString("post_id"), rs.getString("thread_id"), rs.getLong("seq"), rs.getString("kind"),
                rs.getString("text"), author, rs.getString("turn_message_id"), rs.getString("state"),
                Instant.parse(rs.getString("created_at")), Instant.parse(rs.getString("updated_at")), rs.getString("data"));
    }

    /**
     * Commits one engine step: the session and what its chat effects change in the thread (answer
     * text, notices, questions, turn states), in one transaction, so the thread never disagrees with
     * the session after a crash. A person's message, when the step accepted one, is written with it.
     * Returns the posts created or changed, for publishing after the commit.
     */
    public List<Post> commitStep(String threadId, Session session, List<Effect> effects, Post accepted, Instant now) {
        return commitStep(threadId, session, effects, accepted, now, true);
    }

    /**
     * As {@link #commitStep(String, Session, List, Post, Instant)}; with {@code saveSession} false the session
     * is not written. The driver says so for a streamed chunk that changed nothing of the session but the
     * answer ({@link Session#changedOnlyByStreaming}): the answer post carries the answer and how it divides
     * into artifacts ({@link SessionFormat#answerParts}), and {@link #session} reads it back from there.
     */
    public List<Post> commitStep(String threadId, Session session, List<Effect> effects, Post accepted, Instant now,
            boolean saveSession) {
        String owner = fenceOwner;
        return inTransaction(c -> {
            if (owner != null) {
                PreparedStatement f = statement(c, FENCE);
                bind(f, threadId, owner);
                try (ResultSet rs = f.executeQuery()) {
                    if (!rs.next()) {
                        throw new LeaseLost(threadId);
                    }
                }
            }
            // what a step writes is what it changed (issue 9): a streamed chunk is one UPDATE of its answer post,
            // read back by the same statement; the thread's activity is moved once, and only when a post is added
            List<Post> changed = new ArrayList<>();
            boolean appended = false;
            if (accepted != null) {
                changed.add(appendIn(c, threadId, accepted.id(), Post.USER, accepted.text(), accepted.author(),
                        accepted.turnMessageId(), accepted.state(), now));
                appended = true;
            }
            for (Effect e : effects) {
                if (e instanceof Effect.ShowAnswer a) {
                    String id = answerPostId(a.messageId());
                    String parts = session.turn(a.messageId()).map(t -> SessionFormat.answerParts(t.progress())).orElse(null);
                    if (!updateReturning(c, changed, ChatSql.UPDATE_ANSWER, a.text(), parts, now.toString(), id, threadId)) {
                        changed.add(appendIn(c, threadId, id, Post.AGENT, a.text(), null, a.messageId(), null, now, parts));
                        appended = true;
                    }
                } else if (e instanceof Effect.PostNotice n) {
                    changed.add(appendIn(c, threadId, java.util.UUID.randomUUID().toString(), Post.NOTICE, n.text(), null,
                            n.messageId(), null, now));
                    appended = true;
                } else if (e instanceof Effect.AskQuestion q) {
                    changed.add(appendIn(c, ChatSql.APPEND_POST, threadId, java.util.UUID.randomUUID().toString(),
                            Post.QUESTION, q.text(), null, q.messageId(), null, now, null, q.hitl()));
                    appended = true;
                } else if (e instanceof Effect.ShowStep st) {
                    Post step = appendIn(c, ChatSql.APPEND_POST_ONCE, threadId, StepPosts.id(st.messageId(), st.step()),
                            Post.STEP, st.step().name(), null, st.messageId(), null, now, null, StepPosts.data(st.step()));
                    if (step != null) {
                        changed.add(step);
                        appended = true;
                    }
                } else if (e instanceof Effect.TurnStateChanged t) {
                    // the turn's own post and the answers to its questions all show the turn's state
                    String state = t.state().name().toLowerCase(java.util.Locale.ROOT);
                    // a reply first taken as an answer may become a turn of its own: it then follows its own state
                    updateIn(c, dialect == Database.Dialect.POSTGRESQL ? ChatSql.ADOPT_TURN_POSTGRESQL : ChatSql.ADOPT_TURN,
                            t.messageId(), threadId);
                    updateReturning(c, changed, ChatSql.TURN_STATE, state, now.toString(), t.messageId(), threadId);
                }
            }
            if (appended) {
                updateIn(c, ChatSql.TOUCH_THREAD, now.toString(), threadId);
            }
            if (saveSession) {
                saveSessionIn(c, threadId, session, now);
            }
            if (owner != null) {
                // each payload under PostgreSQL's limit, which would otherwise fail this whole commit (L7): a post
                // whose id does not fit is told as its thread, once however many of them the step changed
                java.util.Set<String> payloads = new java.util.LinkedHashSet<>();
                changed.forEach(p -> PostNotification.payload(owner, threadId, p.id()).ifPresent(payloads::add));
                for (String payload : payloads) {
                    PreparedStatement n = statement(c, NOTIFY_POST);
                    bind(n, payload);
                    n.executeQuery().close();
                }
            }
            return changed;
        });
    }

    private static final String FENCE =
            "SELECT 1 FROM bridge_lease WHERE thread_id = ? AND owner = ? AND expires_at > now() FOR SHARE";
    private static final String NOTIFY_POST = "SELECT pg_notify('switchboard_post', ?)";

    // ---- sessions ----

    /** The post that shows a turn's answer. */
    static String answerPostId(String turnMessageId) {
        return "answer-" + turnMessageId;
    }

    /**
     * The thread's session as stored, its active turn's answer taken from its answer post when chunks wrote the
     * post after the session was last written ({@link SessionFormat#withAnswerPost}): one more primary-key probe.
     */
    public Optional<Session> session(String threadId) {
        List<Session> found = query(ChatSql.SESSION_BY_THREAD,
                rs -> readSession(rs.getString(1)), threadId);
        return found.isEmpty() ? Optional.empty() : Optional.of(withAnswerPost(threadId, found.get(0)));
    }

    private Session withAnswerPost(String threadId, Session s) {
        if (s.active().isEmpty() || s.active().get().taskId() == null) {
            return s; // no task yet: nothing was streamed
        }
        // the thread's own answer post only: a post of that id elsewhere is not this session's answer
        List<Session> read = query(ChatSql.POST_IN_THREAD, rs -> SessionFormat.withAnswerPost(s, rs.getString("text"),
                rs.getString("answer_parts"), Instant.parse(rs.getString("updated_at"))),
                answerPostId(s.active().get().messageId()), threadId);
        return read.isEmpty() ? s : read.get(0);
    }

    /** How many times a session was written: a streamed chunk must not add to it (issue 9). */
    public long sessionWrites() {
        return sessionWrites.get();
    }

    /** Threads whose sessions have unfinished turns: recovered at start. */
    public Map<String, Session> pendingSessions() {
        Map<String, Session> out = new java.util.LinkedHashMap<>();
        query(ChatSql.PENDING_SESSIONS, rs -> {
            out.put(rs.getString(1), readSession(rs.getString(2)));
            return null;
        });
        out.replaceAll(this::withAnswerPost);
        return out;
    }

    private void saveSessionIn(Connection c, String threadId, Session session, Instant now) throws SQLException {
        updateIn(c, ChatSql.SAVE_SESSION, threadId, SessionFormat.write(session), session.idle() ? 0 : 1, now.toString());
        sessionWrites.incrementAndGet();
    }

    private static Session readSession(String json) {
        try {
            return SessionFormat.read(json);
        } catch (RuntimeException e) {
            throw new StoreException("cannot read a stored session", e);
        }
    }

    // ---- JDBC plumbing ----

    /** One row read into a value; a null value is skipped. */
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** Writes done in one transaction on the store's writer. */
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Reads with a statement of the caller's: a chat platform keeps its own tables (Slack's message ids, its
     * event ids) in this store, beside the threads they belong to.
     */
    public <T> List<T> read(String sql, RowMapper<T> mapper, Object... args) {
        return query(sql, mapper, args);
    }

    /**
     * Writes with the caller's statements, through this store's single writer (see {@link #inTransaction}):
     * a second writer connection would only wait on SQLite's lock. Statements are prepared once and kept.
     */
    public <T> T write(Work<T> work) {
        return inTransaction(work);
    }

    /** Runs one statement inside {@link #write}, prepared once on the writer. */
    public int update(Connection c, String sql, Object... args) throws SQLException {
        return updateIn(c, sql, args);
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

    private int updateIn(Connection c, String sql, Object... args) throws SQLException {
        PreparedStatement s = statement(c, sql);
        bind(s, args);
        return s.executeUpdate();
    }

    /** The writer's statement for this SQL, prepared once: compiling SQL was a tenth of a step's store time. */
    private PreparedStatement statement(Connection c, String sql) throws SQLException {
        PreparedStatement s = statements.get(sql);
        if (s == null) {
            s = c.prepareStatement(sql);
            statements.put(sql, s);
        }
        return s;
    }

    /**
     * Runs {@code work} in a transaction on the store's writer connection and returns once it is committed.
     *
     * <p>SQLite has one writer at a time, and a writer that finds the lock taken sleeps in its busy handler
     * (1 ms growing to 100 ms per try): under load the lanes and the web chat's workers spent most of their
     * time asleep there. Writers of this store queue on a Java lock instead, and share one connection kept
     * open with its statements prepared. Whoever holds the lock commits every write queued by then in one
     * transaction (group commit: the pages they share, the index and session pages, are written once), each
     * in a savepoint of its own so that one failing write fails alone. A caller still returns only after its
     * write is committed, so nothing runs on a write that could be lost.
     */
    private <T> T inTransaction(Work<T> work) {
        Pending<T> mine = new Pending<>(work);
        queued.add(mine);
        writeLock.lock();
        try {
            if (!mine.done) {
                commitQueued();
            }
        } finally {
            writeLock.unlock();
        }
        return mine.outcome();
    }

    /** A write waiting for the writer; {@code done} and its outcome are set under the lock, read after it. */
    private static final class Pending<T> {
        final Work<T> work;
        boolean done;
        T value;
        RuntimeException error;

        Pending(Work<T> work) {
            this.work = work;
        }

        void run(Connection c) throws SQLException {
            value = work.run(c);
        }

        T outcome() {
            if (error != null) {
                throw error;
            }
            return value;
        }
    }

    private final java.util.concurrent.ConcurrentLinkedQueue<Pending<?>> queued =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private static final int MAX_BATCH = 64;

    /** Commits the queued writes, a batch at a time; called with the lock held. */
    private void commitQueued() {
        List<Pending<?>> batch = new ArrayList<>();
        for (Pending<?> p; batch.size() < MAX_BATCH && (p = queued.poll()) != null; ) {
            batch.add(p);
        }
        try {
            Connection c = writer();
            try {
                // SQLite: take the write lock now, not at the first write (see Database); PostgreSQL locks rows as it goes
                exec(c, dialect == Database.Dialect.POSTGRESQL ? "BEGIN" : "BEGIN IMMEDIATE");
                for (Pending<?> p : batch) {
                    exec(c, "SAVEPOINT write");
                    try {
                        p.run(c);
                        exec(c, "RELEASE write");
                    } catch (SQLException | RuntimeException e) {
                        exec(c, "ROLLBACK TO write");
                        exec(c, "RELEASE write");
                        p.error = e instanceof RuntimeException r ? r : new StoreException("store write failed", e);
                    }
                }
                exec(c, "COMMIT");
            } catch (SQLException e) {
                try {
                    exec(c, "ROLLBACK");
                } catch (SQLException ignored) {
                    // the connection is dropped below anyway
                }
                closeWriter(); // a connection that failed mid-transaction is not trusted with the next one
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            StoreException failed = new StoreException("store write failed", e);
            batch.forEach(p -> {
                p.value = null;
                p.error = failed;
            });
        }
        batch.forEach(p -> p.done = true);
    }

    private Connection writer() throws SQLException {
        if (writer == null) {
            writer = dataSource.getConnection();
            writer.setAutoCommit(true);
            dialect = Database.Dialect.of(writer);
        }
        return writer;
    }

    private void exec(Connection c, String sql) throws SQLException {
        updateIn(c, sql);
    }

    private void closeWriter() {
        statements.clear();
        if (writer != null) {
            try {
                writer.close();
            } catch (SQLException ignored) {
                // it is being dropped anyway
            }
            writer = null;
        }
    }

    private static void bind(PreparedStatement s, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            s.setObject(i + 1, args[i]);
        }
    }
}
