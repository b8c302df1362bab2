package dev.switchboard.protocol.sse;

import java.util.List;

/**
 * An incremental SSE parser: feed it bytes as they arrive, take complete events out. Ignores
 * comments, keeps {@code id:} and {@code event:}, joins multi-line {@code data:} with "\n", accepts
 * LF, CRLF and CR line ends, and refuses an event larger than the cap.
 */
public final class SseReader {

    public static final int DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024;

    public SseReader(int maxEventBytes) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** @throws SseTooLargeException when an event grows past the cap */
    public List<SseEvent> feed(byte[] chunk, int offset, int length) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** Ends the input; returns a last event that was not followed by a blank line, if any. */
    public List<SseEvent> finish() {
        throw new UnsupportedOperationException("skeleton");
    }
}
