package dev.switchboard.protocol.sse;

/** One server-sent event: {@code event} null for the default type, {@code id} null when absent. */
public record SseEvent(String event, String id, String data) {

    public boolean isError() {
        return "error".equals(event);
    }
}
