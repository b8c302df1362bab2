package dev.switchboard.gateway;

import dev.switchboard.http.WriteQueues;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientBuilder;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One HTTP client per event loop for the relayed calls. A client's pool is shared by every thread that uses it,
 * so with one client a call arriving on one event loop often got a connection living on another, and every
 * step of the call (request written, reply head, body, end) crossed threads through task queues. A client per
 * loop keeps a call, its upstream connection and its callbacks on one thread.
 */
public final class UpstreamClients {

    private final Supplier<HttpClientAgent> factory;
    private final ConcurrentHashMap<Thread, HttpClientAgent> byThread = new ConcurrentHashMap<>();
    /** For a call started off an event loop (none is today): Vert.x's own write queues, any thread may write. */
    private final Supplier<HttpClientAgent> shared;
    private volatile HttpClientAgent offLoop;

    /** @param builder a client builder with the gateway's options, made anew for each event loop */
    public UpstreamClients(Supplier<HttpClientBuilder> builder) {
        // each client's connections are written to only from its own event loop
        this.factory = () -> builder.get().withConnectHandler(WriteQueues::direct).build();
        this.shared = () -> builder.get().build();
    }

    /** The client of the calling thread (an event loop), made on first use. */
    HttpClientAgent current() {
        if (!Context.isOnEventLoopThread()) {
            HttpClientAgent c = offLoop;
            if (c == null) {
                synchronized (this) {
                    if (offLoop == null) {
                        offLoop = shared.get();
                    }
                    c = offLoop;
                }
            }
            return c;
        }
        Thread t = Thread.currentThread();
        HttpClientAgent c = byThread.get(t);
        return c != null ? c : byThread.computeIfAbsent(t, k -> factory.get());
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new java.util.ArrayList<>(byThread.values().stream().map(HttpClientAgent::close).toList());
        byThread.clear();
        if (offLoop != null) {
            closing.add(offLoop.close());
        }
        return Future.join(closing).mapEmpty();
    }
}
