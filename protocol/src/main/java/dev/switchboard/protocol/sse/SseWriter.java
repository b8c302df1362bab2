package dev.switchboard.protocol.sse;

/**
 * Formats SSE frames: one-line JSON per {@code data:} (the 1.0 TCK parses each data line on its
 * own) and comments. Anything that would break a frame (a line break) is refused, not escaped.
 */
public final class SseWriter {

    private SseWriter() {}

    /** "data: {json}\n\n"; the JSON must be one line (compact), else IllegalArgumentException. */
    public static String data(String oneLineJson) {
        return "data: " + oneLine(oneLineJson, "data") + "\n\n";
    }

    /** "event: {type}\ndata: {json}\n\n" */
    public static String event(String type, String oneLineJson) {
        return "event: " + oneLine(type, "event type") + "\ndata: " + oneLine(oneLineJson, "data") + "\n\n";
    }

    /** ": {text}\n\n" */
    public static String comment(String text) {
        return ": " + oneLine(text, "comment") + "\n\n";
    }

    private static String oneLine(String s, String what) {
        if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("SSE " + what + " must be one line");
        }
        return s;
    }
}
