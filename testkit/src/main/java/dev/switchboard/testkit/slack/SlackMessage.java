package dev.switchboard.testkit.slack;

import java.util.List;

/**
 * A message as the fake stores it, a snapshot taken when a test asked.
 *
 * @param channel the channel id
 * @param ts the message's timestamp, its id within the channel
 * @param threadTs the thread's parent ts for a reply; null for a top-level message
 * @param user the author's user id (the bot user for what the bot posted)
 * @param botId the bot id for what the bot posted; null for what a person wrote
 * @param text the current text (may be null when only blocks were sent)
 * @param blocks the current blocks as JSON text, as sent; null when none
 * @param metadata the message metadata as JSON text, as sent; null when none
 * @param edits how many times {@code chat.update} changed it
 * @param texts every version of the text, oldest first (the current one last); a stream's appends change the
 *     current one, not add versions
 * @param streaming whether it is a native stream not stopped yet ({@code chat.startStream} without
 *     {@code chat.stopStream})
 * @param tasks a stream's tasks: the latest {@code task_update} chunk of each (JSON text), in first-shown order
 */
public record SlackMessage(
        String channel,
        String ts,
        String threadTs,
        String user,
        String botId,
        String text,
        String blocks,
        String metadata,
        int edits,
        List<String> texts,
        boolean streaming,
        List<String> tasks) {

    public SlackMessage {
        texts = List.copyOf(texts);
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    /** The key of the thread this message is in: its {@code thread_ts}, else its own {@code ts}. */
    public String threadKey() {
        return threadTs != null ? threadTs : ts;
    }

    public boolean fromBot() {
        return botId != null;
    }
}
