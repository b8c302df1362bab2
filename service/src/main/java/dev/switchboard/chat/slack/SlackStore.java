package dev.switchboard.chat.slack;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.Post;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Slack's own tables in the chat store: the events received (for de-duplication, and so that an acknowledged event
 * is handled even after a crash), where each post is shown (its messages' {@code ts}), and the thread replies
 * waiting for the next turn. Every method blocks.
 */
final class SlackStore {

    /** Slack redelivers for about five minutes; an event id is remembered far longer than that. */
    static final Duration EVENT_MEMORY = Duration.ofHours(24);

    private final ChatStore store;

    SlackStore(ChatStore store) {
        this.store = store;
    }

    // ---- events ----

    /** Records an event before it is acknowledged; false when its id was seen before (a retry or a duplicate). */
    boolean recordEvent(String app, String eventId, String body, Instant now) {
        return store.write(c -> store.update(c, "INSERT INTO slack_event (event_id, app, body, received_at) "
                + "VALUES (?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING", eventId, app, body, now.toString())) == 1;
    }

    /** The event is handled: only its id is kept. */
    void eventHandled(String eventId) {
        store.write(c -> store.update(c, "UPDATE slack_event SET body = NULL WHERE event_id = ?", eventId));
    }

    /** Events acknowledged but not handled when the process stopped, oldest first. */
    List<StoredEvent> unhandledEvents(String app) {
        return store.read("SELECT event_id, body FROM slack_event WHERE app = ? AND body IS NOT NULL ORDER BY received_at",
                rs -> new StoredEvent(rs.getString(1), rs.getString(2)), app);
    }

    void forgetEventsBefore(Instant cutoff) {
        store.write(c -> store.update(c, "DELETE FROM slack_event WHERE received_at < ? AND body IS NULL", cutoff.toString()));
    }

    record StoredEvent(String eventId, String body) {}

    // ---- messages ----

    /** Where the parts of a post are shown, by part. */
    List<ShownPart> parts(String postId) {
        return store.read("SELECT part, channel, thread_ts, ts, shown_text, shown_update FROM slack_message "
                + "WHERE post_id = ? ORDER BY part", rs -> new ShownPart(postId, rs.getInt(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6)), postId);
    }

    /** A part about to be posted: written first, so that a crash mid-post leads to a look-up, not a second post. */
    void posting(String postId, int part, String channel, String threadTs) {
        store.write(c -> store.update(c, "INSERT INTO slack_message (post_id, part, channel, thread_ts) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (post_id, part) DO NOTHING", postId, part, channel, threadTs));
    }

    /** The ts of every message of the thread the store knows as a part of some post. */
    java.util.Set<String> knownTs(String channel, String threadTs) {
        return new java.util.HashSet<>(store.read("SELECT ts FROM slack_message WHERE channel = ? AND thread_ts = ? "
                + "AND ts IS NOT NULL", rs -> rs.getString(1), channel, threadTs));
    }

    /** The part is shown as message {@code ts} with this text. */
    void shown(String postId, int part, String ts, String text) {
        store.write(c -> store.update(c, "UPDATE slack_message SET ts = ?, shown_text = ? WHERE post_id = ? AND part = ?",
                ts, text, postId, part));
    }

    /** Every part of the post's version {@code update} (its updated_at) is shown. */
    void completed(String postId, String update) {
        store.write(c -> store.update(c, "UPDATE slack_message SET shown_update = ? WHERE post_id = ? AND part = 0",
                update, postId));
    }

    /** Parts whose post was cut off by a crash (ts unknown), for the look-up at start. */
    List<ShownPart> unposted() {
        return store.read("SELECT post_id, part, channel, thread_ts FROM slack_message WHERE ts IS NULL",
                rs -> new ShownPart(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4), null, null, null));
    }

    /**
     * Posts of recent Slack threads whose latest version Slack has not shown in full (the process stopped between
     * the commit and the call): shown again at start.
     */
    List<String> postsBehind(Instant since) {
        return store.read("SELECT p.post_id FROM chat_thread t JOIN chat_post p ON p.thread_id = t.thread_id "
                + "WHERE t.platform = ? AND t.last_activity >= ? AND p.kind <> 'user' AND NOT EXISTS ("
                + "SELECT 1 FROM slack_message m WHERE m.post_id = p.post_id AND m.part = 0 AND m.shown_update = p.updated_at) "
                + "ORDER BY t.last_activity, p.seq", rs -> rs.getString(1), Platform.SLACK.configName(),
                since.toString());
    }

    /**
     * A turn's own post, its questions, its step cards and the answers to its questions, oldest first: what a
     * question message shows once answered, and what a turn's steps message lists (index {@code chat_post_turn}).
     */
    List<Post> turnPosts(String turnMessageId) {
        return store.read("SELECT post_id, thread_id, seq, kind, text, author_id, author_name, author_email, state, "
                + "created_at, updated_at, data FROM chat_post WHERE turn_message_id = ? AND kind IN ('user', 'question', "
                + "'step') ORDER BY seq", rs -> {
                    String authorId = rs.getString(6);
                    Actor author = authorId == null ? null : new Actor(authorId, rs.getString(7), rs.getString(8));
                    return new Post(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getString(5),
                            author, turnMessageId, rs.getString(9), Instant.parse(rs.getString(10)),
                            Instant.parse(rs.getString(11)), rs.getString(12));
                }, turnMessageId);
    }

    /** The state of a turn (its user post's), lowercase; null when unknown. */
    String turnState(String turnMessageId) {
        List<String> r = store.read("SELECT state FROM chat_post WHERE post_id = ?", rs -> rs.getString(1), turnMessageId);
        return r.isEmpty() ? null : r.get(0);
    }

    java.util.Optional<Post> post(String postId) {
        return store.post(postId);
    }

    /** The agent's answer posts of a turn, oldest first. */
    List<String> answerPostIds(String turnMessageId) {
        return store.read("SELECT post_id FROM chat_post WHERE turn_message_id = ? AND kind = 'agent' ORDER BY seq",
                rs -> rs.getString(1), turnMessageId);
    }

    /** Where a post's part is shown, and what it shows. */
    record ShownPart(String postId, int part, String channel, String threadTs, String ts, String shownText,
            String shownUpdate) {}

    // ---- thread replies that did not mention the bot ----

    void addSideMessage(String threadId, String ts, String userId, String text) {
        store.write(c -> store.update(c, "INSERT INTO slack_side_message (thread_id, ts, user_id, text) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (thread_id, ts) DO NOTHING", threadId, ts, userId, text));
    }

    /** The replies waiting for the next turn of a thread, oldest first (at most {@code limit}). */
    List<SideMessage> sideMessages(String threadId, int limit) {
        return store.read("SELECT ts, user_id, text FROM slack_side_message WHERE thread_id = ? ORDER BY ts LIMIT ?",
                rs -> new SideMessage(rs.getString(1), rs.getString(2), rs.getString(3)), threadId, limit);
    }

    /** Drops the replies a turn has carried (up to and including {@code lastTs}). */
    void dropSideMessages(String threadId, String lastTs) {
        store.write(c -> store.update(c, "DELETE FROM slack_side_message WHERE thread_id = ? AND ts <= ?", threadId, lastTs));
    }

    int sideMessageCount(String threadId) {
        return store.read("SELECT COUNT(*) FROM slack_side_message WHERE thread_id = ?", rs -> rs.getInt(1), threadId)
                .get(0);
    }

    record SideMessage(String ts, String userId, String text) {}
}
