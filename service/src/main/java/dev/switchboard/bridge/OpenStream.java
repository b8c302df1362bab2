package dev.switchboard.bridge;

import dev.switchboard.client.StreamHandle;

/**
 * A stream from the moment it is asked for until it ends, fails or is closed: while it is its thread's stream, the
 * thread stays in memory. A close before the call started cuts it as it starts.
 */
final class OpenStream implements StreamHandle {

    private final CallSpan span;
    private StreamHandle call;
    private boolean closed;

    OpenStream(CallSpan span) {
        this.span = span;
    }

    synchronized void started(StreamHandle handle) {
        call = handle;
        if (closed) {
            handle.close();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        span.closed();
        if (call != null) {
            call.close();
        }
    }
}
