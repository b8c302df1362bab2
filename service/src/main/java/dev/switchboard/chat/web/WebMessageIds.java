package dev.switchboard.chat.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The post ids (and so the A2A messageIds, B3) of web-chat messages. A caller's {@code messageId} is only an
 * idempotency key: the id is derived from it and from where it was sent (a new thread in a channel, a reply in a
 * thread), so a retried POST finds its message again (B7, also after a restart or on another replica: nothing here is
 * random or kept), while no caller can pick an id the bridge derives for something else (issue 22, H1): another
 * thread's message, a turn's answer post ({@code answer-…}), a step ({@code step-…}), a trigger's turn
 * ({@code trigger-…}), a Slack message ({@code slack-…}). Every id here starts with {@code web-}, and the caller's
 * part is hashed with its scope, so two scopes never share an id.
 */
final class WebMessageIds {

    private static final String PREFIX = "web-";

    private WebMessageIds() {}

    /** The first message of a thread opened in {@code channel}: a retry opens no second thread. */
    static String opening(String channel, String key) {
        return PREFIX + hash("thread", channel, key);
    }

    /** A message sent into thread {@code threadId}. */
    static String message(String threadId, String key) {
        return PREFIX + hash("message", threadId, key);
    }

    /**
     * A structured answer to question post {@code questionId} (a server-made id, checked to be a question of the
     * thread): one answer per question however often it is sent. The page finds it by this name.
     */
    static String answer(String questionId) {
        return PREFIX + "answer-" + questionId;
    }

    /** 160 bits of SHA-256 over the kind, the scope and the key, each told apart by its length. */
    private static String hash(String kind, String scope, String key) {
        String input = kind + "\n" + scope.length() + ":" + scope + "\n" + key;
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(input.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
