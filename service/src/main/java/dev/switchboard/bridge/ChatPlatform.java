package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;

/**
 * A chat platform the bridge carries turns for: the web chat now, Slack beside it next. The bridge knows a
 * platform only through this. The platform takes a person's message in its own way, identifies the person as an
 * {@link dev.switchboard.bridge.engine.Actor} and hands both to {@link SessionDriver#accept}; the bridge names the
 * person to the agent as {@code [<label>: <name> (<id>) <email>]} ({@link Platform#label()}) and gives every post it writes back to the
 * platform to show.
 */
public interface ChatPlatform {

    /** The platform a Binding's {@code platform} and a thread's platform name; the agent is told its label. */
    Platform platform();

    /**
     * Shows a post of one of the platform's threads that was created or changed: a person's message with its turn
     * state, the agent's answer as it streams, a question, a notice; a post id seen before is an update. The post is
     * in the store already (the web chat reads it from there again). Called on a bridge lane: it must not block.
     */
    void show(ChatThread thread, Post post);

    /**
     * Shows a post that another replica wrote (several replicas on PostgreSQL, issue 12) to the people this replica
     * serves live: the web chat's SSE streams. The owner of the thread already did everything else {@link #show}
     * does (Slack posts it once, from there). Called on the replicas' listener thread: it must not block.
     */
    default void showElsewhere(ChatThread thread, Post post) {
    }

    /** True while someone on this replica watches the thread live: only then is another replica's post read again. */
    default boolean watches(String threadId) {
        return false;
    }
}
