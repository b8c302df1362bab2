package dev.switchboard.chat.web;

import dev.switchboard.bridge.store.Post;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * In-process fan-out of post changes to whoever watches a thread (the web chat's SSE streams).
 * Listeners must not block: they hand the post to their own context.
 */
public final class ChatEvents {

    private final ConcurrentHashMap<String, List<Consumer<Post>>> listeners = new ConcurrentHashMap<>();

    /** Watches a thread; the returned runnable stops watching. */
    public Runnable watch(String threadId, Consumer<Post> listener) {
        listeners.computeIfAbsent(threadId, k -> new CopyOnWriteArrayList<>()).add(listener);
        return () -> listeners.computeIfPresent(threadId, (k, l) -> {
            l.remove(listener);
            return l.isEmpty() ? null : l;
        });
    }

    /** How many listeners watch any thread (each open SSE stream is one). */
    public int listenerCount() {
        int n = 0;
        for (List<Consumer<Post>> l : listeners.values()) {
            n += l.size();
        }
        return n;
    }

    /** True while someone watches the thread. */
    public boolean watching(String threadId) {
        return listeners.containsKey(threadId);
    }

    public void publish(Post post) {
        List<Consumer<Post>> l = listeners.get(post.threadId());
        if (l != null) {
            l.forEach(c -> c.accept(post));
        }
    }
}
