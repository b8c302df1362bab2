package dev.switchboard.chat.slack;

import dev.switchboard.bridge.engine.Platform;

/**
 * A Slack thread's id in the chat store, {@code slack:<channel>:<thread ts>}, derived from the thread itself: every
 * event of a thread finds its session without a look-up table, on any replica, after any restart.
 */
final class SlackThreads {

    private SlackThreads() {}

    static String threadId(String channel, String threadTs) {
        return Platform.SLACK.configName() + ":" + channel + ":" + threadTs;
    }

    static String threadTs(String threadId) {
        return threadId.substring(threadId.lastIndexOf(':') + 1);
    }

    /** A person's message as a turn's messageId: fixed for the message, so a redelivery is the same turn (B7). */
    static String messageId(String channel, String ts) {
        return "slack-" + channel + "-" + ts;
    }
}
