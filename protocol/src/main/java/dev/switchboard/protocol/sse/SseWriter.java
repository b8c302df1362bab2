package dev.switchboard.protocol.sse;

/** Formats SSE frames: one-line JSON per {@code data:} and comments. */
public final class SseWriter {

    private SseWriter() {}

    /** "data: {json}\n\n"; the JSON must be one line (compact), else IllegalArgumentException. */
    public static String data(String oneLineJson) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** "event: {type}\ndata: {json}\n\n" */
    public static String event(String type, String oneLineJson) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** ": {text}\n\n" */
    public static String comment(String text) {
        throw new UnsupportedOperationException("skeleton");
    }
}
