package dev.switchboard.bridge.store;

import dev.switchboard.bridge.engine.Actor;
import java.time.Instant;

/**
 * One entry of a thread: a person's message ({@code user}), the agent's answer to a turn
 * ({@code agent}), a question, or a notice.
 *
 * @param turnMessageId the turn it belongs to (a user post's own id)
 * @param state a user post's turn state, lowercase (null for other kinds)
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
        Instant updatedAt) {

    public static final String USER = "user";
    public static final String AGENT = "agent";
    public static final String NOTICE = "notice";
    public static final String QUESTION = "question";
}
