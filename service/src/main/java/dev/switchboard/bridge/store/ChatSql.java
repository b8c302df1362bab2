package dev.switchboard.bridge.store;

import java.util.List;

/**
 * The statements {@link ChatStore} runs, named, so that a test can ask SQLite how it runs each one
 * ({@code EXPLAIN QUERY PLAN}): every statement of an engine step must probe an index, never scan a table
 * that grows with history (issue 9).
 */
final class ChatSql {

    private ChatSql() {}

    static final String POST_BY_ID = "SELECT * FROM chat_post WHERE post_id = ?";
    /** A post of one thread: what the bridge reads back of a thread's own posts is never another thread's. */
    static final String POST_IN_THREAD = "SELECT * FROM chat_post WHERE post_id = ? AND thread_id = ?";
    static final String POSTS_OF_THREAD = "SELECT * FROM chat_post WHERE thread_id = ? ORDER BY seq";
    static final String THREAD_BY_ID = "SELECT * FROM chat_thread WHERE thread_id = ?";
    static final String THREADS_OF_CHANNEL =
            "SELECT * FROM chat_thread WHERE platform = ? AND channel = ? ORDER BY last_activity DESC LIMIT ?";
    static final String INSERT_THREAD = "INSERT INTO chat_thread (thread_id, platform, channel, binding, title, created_at, "
            + "last_activity) VALUES (?, ?, ?, ?, ?, ?, ?)";

    /** A post at the end of its thread: the next seq is read by the insert itself, one statement. */
    static final String APPEND_POST = "INSERT INTO chat_post (post_id, thread_id, seq, kind, text, author_id, author_name, "
            + "author_email, turn_message_id, state, created_at, updated_at, answer_parts, data) "
            + "SELECT ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM chat_post WHERE thread_id = ? "
            + "RETURNING seq";
    /** A post that may have been written already (a step card read again): the first one stays; no row when it did. */
    static final String APPEND_POST_ONCE = APPEND_POST.replace(" RETURNING seq", " ON CONFLICT (post_id) DO NOTHING RETURNING seq");
    static final String TOUCH_THREAD = "UPDATE chat_thread SET last_activity = ? WHERE thread_id = ?";
    /*
     * Every write of a post names its thread as well as the post (issue 22, H1): a post id that turned up in another
     * thread (a caller who once chose ids, a bug) is never written for this one. Post ids are derived so that they do
     * not collide (the web chat's WebMessageIds); this makes a collision change nothing instead of someone else's post.
     */

    /**
     * A streamed chunk: the answer post's new text and how it divides into artifacts, the post read back in the
     * same statement. Often the only statement of a step: the session is not rewritten for a chunk.
     */
    static final String UPDATE_ANSWER = "UPDATE chat_post SET text = ?, answer_parts = ?, updated_at = ? "
            + "WHERE post_id = ? AND thread_id = ? AND kind = 'agent' RETURNING *";
    /** A reply first taken as an answer may become a turn of its own; written only when it does. */
    static final String ADOPT_TURN = "UPDATE chat_post SET turn_message_id = post_id "
            + "WHERE post_id = ? AND thread_id = ? AND kind = 'user' AND turn_message_id IS NOT post_id";
    /** {@link #ADOPT_TURN} in PostgreSQL's words: it has no {@code IS NOT} between two values. */
    static final String ADOPT_TURN_POSTGRESQL = ADOPT_TURN.replace(" IS NOT post_id", " IS DISTINCT FROM post_id");
    /** A turn's state, shown on its own post and on the answers to its questions; the changed posts read back. */
    static final String TURN_STATE = "UPDATE chat_post SET state = ?, updated_at = ? "
            + "WHERE turn_message_id = ? AND kind = 'user' AND thread_id = ? RETURNING *";
    static final String SESSION_BY_THREAD = "SELECT state FROM bridge_session WHERE thread_id = ?";
    static final String SAVE_SESSION = "INSERT INTO bridge_session (thread_id, state, pending, updated_at) VALUES (?, ?, ?, ?) "
            + "ON CONFLICT (thread_id) DO UPDATE SET state = excluded.state, pending = excluded.pending, "
            + "updated_at = excluded.updated_at";
    static final String PENDING_SESSIONS =
            "SELECT thread_id, state FROM bridge_session WHERE pending = 1 ORDER BY updated_at";

    /**
     * What the bridge runs for an input: the session and thread loaded (once, then cached), a repeated message
     * looked up, the step committed, and the thread read back by the web chat.
     */
    static final List<String> PER_STEP = List.of(POST_BY_ID, POST_IN_THREAD, POSTS_OF_THREAD, THREAD_BY_ID, INSERT_THREAD, APPEND_POST,
            APPEND_POST_ONCE,
            TOUCH_THREAD, UPDATE_ANSWER, ADOPT_TURN, TURN_STATE, SESSION_BY_THREAD, SAVE_SESSION);
}
