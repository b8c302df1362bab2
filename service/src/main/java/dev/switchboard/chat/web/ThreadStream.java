package dev.switchboard.chat.web;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code GET /api/chat/threads/{threadId}/events}: server-sent events of the thread's post changes (upserts by id),
 * with keepalive comments, for as long as the client listens.
 */
final class ThreadStream {

    private final Vertx vertx;
    private final ChatEvents events;

    ThreadStream(Vertx vertx, ChatEvents events) {
        this.vertx = vertx;
        this.events = events;
    }

    /** Streams a thread known to exist to {@code r}. */
    void open(HttpServerResponse r, String threadId) {
        if (r.closed()) {
            return; // the client left during the lookup: nothing to watch for it
        }
        r.setChunked(true)
                .putHeader("Content-Type", "text/event-stream")
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        Context context = vertx.getOrCreateContext();
        Runnable stop = events.watch(threadId, post -> context.runOnContext(v -> {
            if (!r.closed() && !r.ended()) {
                r.write("event: post\ndata: " + ChatJson.post(post) + "\n\n");
            }
        }));
        // watching before saying so: a client that saw "connected" misses no change after it
        r.write(": connected\n\n");
        long keepalive = vertx.setPeriodic(15_000, id -> {
            if (!r.closed() && !r.ended()) {
                r.write(": keepalive\n\n");
            }
        });
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                stop.run();
                vertx.cancelTimer(keepalive);
            }
        };
        // whichever comes first: the connection closes, the response ends, or writing fails
        r.closeHandler(v -> release.run());
        r.endHandler(v -> release.run());
        r.exceptionHandler(e -> release.run());
        if (r.closed()) {
            release.run();
        }
    }
}
