package dev.switchboard.chat.web;

import dev.switchboard.bridge.ChatPlatform;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;

/**
 * The web chat as the bridge sees it: threads of platform {@code web}, people named {@code [Web: …]}, and a post
 * shown by handing it to the browsers that watch its thread ({@link ChatEvents}, the API's SSE streams).
 */
public final class WebChatPlatform implements ChatPlatform {

    private final ChatEvents events = new ChatEvents();

    @Override
    public Platform platform() {
        return Platform.WEB;
    }

    @Override
    public void show(ChatThread thread, Post post) {
        events.publish(post);
    }

    /** A post another replica wrote: this replica's SSE streams of its thread show it too. */
    @Override
    public void showElsewhere(ChatThread thread, Post post) {
        events.publish(post);
    }

    @Override
    public boolean watches(String threadId) {
        return events.watching(threadId);
    }

    /** Who watches which thread. */
    public ChatEvents events() {
        return events;
    }
}
