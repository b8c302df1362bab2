package dev.switchboard.http;

/** A request's declared {@code Content-Length}, read the one way every body reader and the body budget read it. */
public final class ContentLength {

    private ContentLength() {}

    /** The header's value, or -1 when there is none or it cannot be read (a chunked body, a malformed length). */
    public static long of(String header) {
        if (header == null) {
            return -1;
        }
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException ignored) {
            return -1;
        }
    }
}
