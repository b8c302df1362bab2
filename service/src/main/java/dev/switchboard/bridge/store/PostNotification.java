package dev.switchboard.bridge.store;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What a replica's step tells the others about a post it changed (channel {@code switchboard_post}): the replica, so
 * it ignores its own, the thread, so a replica reads the post only when someone there watches the thread, and the
 * post. The payload is {@code replica|n|threadId postId}, n the thread id's length.
 *
 * <p>PostgreSQL refuses a NOTIFY payload of {@link #MAX_PAYLOAD_BYTES} bytes or more by failing the statement, and so
 * the step's whole transaction (L7). A post's id may carry what an agent chose (a step card's tool-call id), so a
 * post whose payload would not fit is told as its thread alone ({@code postId} null): read the thread's posts again.
 */
public record PostNotification(String replica, String threadId, String postId) {

    /** PostgreSQL's NOTIFY_PAYLOAD_MAX_LENGTH (with the default 8 kB block size); a payload must be shorter. */
    public static final int MAX_PAYLOAD_BYTES = 8000;

    /** The payload telling the post, or the whole thread when that would not fit; empty when neither fits. */
    public static Optional<String> payload(String replica, String threadId, String postId) {
        String post = encode(replica, threadId, postId);
        if (fits(post)) {
            return Optional.of(post);
        }
        return wholeThread(replica, threadId);
    }

    /** The payload telling the whole thread; empty when even that does not fit (a thread id Switchboard never makes). */
    public static Optional<String> wholeThread(String replica, String threadId) {
        String thread = encode(replica, threadId, "");
        return fits(thread) ? Optional.of(thread) : Optional.empty();
    }

    /** Whether PostgreSQL takes this payload: counted in bytes, as the server does (the store is UTF-8). */
    public static boolean fits(String payload) {
        return payload.getBytes(StandardCharsets.UTF_8).length < MAX_PAYLOAD_BYTES;
    }

    /** The notification a payload tells; empty when it is not one. */
    public static Optional<PostNotification> parse(String payload) {
        int bar = payload.indexOf('|');
        int bar2 = bar < 0 ? -1 : payload.indexOf('|', bar + 1);
        if (bar2 < 0) {
            return Optional.empty();
        }
        int length;
        try {
            length = Integer.parseInt(payload.substring(bar + 1, bar2));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (length < 0 || bar2 + 1 + length > payload.length()) {
            return Optional.empty();
        }
        String post = payload.substring(bar2 + 1 + length);
        // a post id is never empty (ids are made with a prefix, or are a messageId of one character or more)
        return Optional.of(new PostNotification(payload.substring(0, bar), payload.substring(bar2 + 1, bar2 + 1 + length),
                post.isEmpty() ? null : post));
    }

    private static String encode(String replica, String threadId, String postId) {
        return replica + "|" + threadId.length() + "|" + threadId + postId;
    }
}
