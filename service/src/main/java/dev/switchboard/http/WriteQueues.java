package dev.switchboard.http;

import io.netty.util.internal.shaded.org.jctools.queues.MpscUnboundedArrayQueue;
import io.vertx.core.http.HttpConnection;
import java.lang.reflect.Field;
import java.util.Queue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trims the write queue Vert.x gives every server connection, which an idle relayed stream pays for: by default a
 * connection queues its writes in a multi-producer queue so that any thread may write, and that queue allocates a
 * 1,024-slot chunk up front — 4.7 KB of heap per connection. {@link #small} keeps the same multi-producer queue with
 * 16-slot chunks (it grows by chunks as before when writes pile up). (The gateway's agent connections are plain Netty
 * channels, see {@code AgentConnections}: no Vert.x queue at all.)
 *
 * <p>This reaches into Vert.x's internals ({@code VertxConnection.outboundMessageQueue} and the queue inside it).
 * Where those are not as expected (another Vert.x version), connections keep Vert.x's queue: only the memory is
 * lost, never a write. It must run before anything is written to the connection (its connect handler).
 */
public final class WriteQueues {

    private static final Logger LOG = LoggerFactory.getLogger(WriteQueues.class);
    private static final int CHUNK = 16;

    private static final Class<?> CONNECTION;
    private static final Field OUTBOUND;
    private static final Field MPSC;
    private static final Field QUEUE;

    static {
        Class<?> connection = null;
        Field outbound = null;
        Field mpsc = null;
        Field queue = null;
        try {
            connection = Class.forName("io.vertx.core.net.impl.VertxConnection");
            outbound = accessible(connection.getDeclaredField("outboundMessageQueue"));
            mpsc = accessible(Class.forName("io.vertx.core.internal.concurrent.OutboundMessageQueue").getDeclaredField("mqp"));
            queue = accessible(Class.forName("io.vertx.core.streams.impl.MessagePassingQueue").getDeclaredField("queue"));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.info("connections keep Vert.x's write queues ({})", e.toString());
            connection = null;
        }
        CONNECTION = connection;
        OUTBOUND = outbound;
        MPSC = mpsc;
        QUEUE = queue;
    }

    private WriteQueues() {}

    private static Field accessible(Field f) {
        f.setAccessible(true);
        return f;
    }

    /** The connection's write queue with small chunks; call from its connect handler. */
    public static void small(HttpConnection connection) {
        if (CONNECTION == null || !CONNECTION.isInstance(connection)) {
            return;
        }
        try {
            Object outbound = OUTBOUND.get(connection);
            if (!MPSC.getDeclaringClass().isInstance(outbound)) {
                return; // already direct (a strict-mode server)
            }
            Object mpsc = MPSC.get(outbound);
            Queue<?> current = (Queue<?>) QUEUE.get(mpsc);
            if (current.isEmpty()) {
                QUEUE.set(mpsc, new MpscUnboundedArrayQueue<>(CHUNK));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("connection keeps Vert.x's write queue: {}", e.toString());
        }
    }
}
