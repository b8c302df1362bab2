package dev.switchboard.bridge.store;

import dev.switchboard.bridge.engine.Actor;
import java.time.Instant;

/**
 * One entry of a thread: a person's message ({@code user}), the agent's answer to a turn
 * ({@code agent}), a question, or a notice.
 *
 * @param turnMessageId the turn it belongs to (a user post's own id)
 * @param state a user post's turn state, lowercase (null for other kinds)
 * @param data what the post shows beyond its text, as JSON: a kagent question's structured request, a step card
 *     (null for other posts)
 */
public record Post(
        String id,
        String threadId,
        long seq,
        String kind,
        String text,
        Actor author,
        String turnMessageId,
        String state,
        Instant createdAt,
        Instant updatedAt,
        String data) {

    /** A post with nothing beyond its text. */
    public Post(String id, String threadId, long seq, String kind, String text, Actor author, String turnMessageId,
            String state, Instant createdAt, Instant updatedAt) {
        this(id, threadId, seq, kind, text, author, turnMessageId, state, createdAt, updatedAt, null);
    }

    public static final String USER = "user";
    public static final String AGENT = "agent";
    public static final String NOTICE = "notice";
    public static final String QUESTION = "question";
    /** kagent-v1: a step of the agent's work, a tool call or its result ({@code data} says which). */
    public static final String STEP = "step";
}
