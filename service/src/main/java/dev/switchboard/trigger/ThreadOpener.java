package dev.switchboard.trigger;

import dev.switchboard.bridge.store.ChatThread;

/**
 * How a platform starts a thread that no person opened: the web chat stores one; Slack posts a root message in the
 * channel first (a Slack thread exists only once it has one). Blocks; called on a worker thread, once per alert group.
 */
@FunctionalInterface
public interface ThreadOpener {

    /**
     * @param suggestedId a thread id fixed by the trigger and the group, for a platform whose ids are its own to pick
     * @param title the thread's title, from the payload: for people to read, never for the agent
     */
    ChatThread open(String binding, String channel, String suggestedId, String title) throws Exception;
}
