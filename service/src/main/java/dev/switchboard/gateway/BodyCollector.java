package dev.switchboard.gateway;

import dev.switchboard.http.ContentLength;
import io.vertx.core.buffer.Buffer;

/**
 * A body gathered from its chunks. Most bodies the gateway relays arrive in one chunk, which is kept as it
 * came (Vert.x hands every chunk over as a heap copy of its own); only a second chunk makes a buffer to join
 * them, sized by the declared {@code Content-Length} when there is one.
 */
final class BodyCollector {

    private final int declared;
    private Buffer first;
    private Buffer joined;

    /** @param contentLength the declared length, or null */
    BodyCollector(String contentLength) {
        this(ContentLength.of(contentLength));
    }

    /** @param declared the declared length, or -1 */
    BodyCollector(long declared) {
        this.declared = (int) Math.min(Integer.MAX_VALUE, declared);
    }

    void add(Buffer chunk) {
        if (joined != null) {
            joined.appendBuffer(chunk);
        } else if (first == null) {
            first = chunk;
        } else {
            joined = Buffer.buffer(Math.max(declared, 2 * (first.length() + chunk.length())));
            joined.appendBuffer(first).appendBuffer(chunk);
            first = null;
        }
    }

    int length() {
        return joined != null ? joined.length() : first != null ? first.length() : 0;
    }

    Buffer buffer() {
        return joined != null ? joined : first != null ? first : Buffer.buffer();
    }
}
