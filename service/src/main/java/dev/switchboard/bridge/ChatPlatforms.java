package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The platforms the bridge serves, one of each {@link Platform} at most. */
public final class ChatPlatforms {

    private final Map<Platform, ChatPlatform> byName = new EnumMap<>(Platform.class);

    public ChatPlatforms(List<ChatPlatform> platforms) {
        for (ChatPlatform p : platforms) {
            if (byName.putIfAbsent(p.platform(), p) != null) {
                throw new IllegalArgumentException("two chat platforms named " + p.platform().configName());
            }
        }
    }

    /** Shows a post on its thread's platform; a platform no longer served shows nothing (the store keeps it). */
    void show(ChatThread thread, Post post) {
        ChatPlatform p = byName.get(thread.platform());
        if (p != null) {
            p.show(thread, post);
        }
    }

    /** True while a platform of this replica shows the thread live ({@link ChatPlatform#watches}). */
    boolean watchedHere(String threadId) {
        for (ChatPlatform p : byName.values()) {
            if (p.watches(threadId)) {
                return true;
            }
        }
        return false;
    }

    /** Shows a post another replica wrote to this replica's live views ({@link ChatPlatform#showElsewhere}). */
    void showElsewhere(ChatThread thread, Post post) {
        ChatPlatform p = byName.get(thread.platform());
        if (p != null) {
            p.showElsewhere(thread, post);
        }
    }
}
