package dev.switchboard.protocol.sse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An incremental SSE parser: feed it bytes as they arrive, take complete events out. Ignores
 * comments, keeps {@code id:} and {@code event:}, joins multi-line {@code data:} with "\n", accepts
 * LF, CRLF and CR line ends, and refuses an event larger than the cap.
 *
 * <p>Lines are collected as bytes and decoded only when complete, so a chunk may end anywhere, even
 * inside a UTF-8 sequence or between CR and LF. An event's {@code id} is the one given in that event
 * (null otherwise): A2A never resumes from Last-Event-ID, so the spec's carried-over id is not kept.
 * After {@link SseTooLargeException} the reader's state is undefined: abandon the stream. Not thread-safe.
 */
public final class SseReader {

    public static final int DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024;

    private final int maxEventBytes;
    private byte[] line = new byte[256];
    private int lineLength;
    /** The previous byte was CR, so an LF right after it ends nothing. */
    private boolean afterCr;
    private boolean firstLine = true;
    private int eventBytes;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String eventType;
    private String id;

    public SseReader(int maxEventBytes) {
        if (maxEventBytes <= 0) {
            throw new IllegalArgumentException("maxEventBytes must be positive: " + maxEventBytes);
        }
        this.maxEventBytes = maxEventBytes;
    }

    public SseReader() {
        this(DEFAULT_MAX_EVENT_BYTES);
    }

    public List<SseEvent> feed(byte[] chunk) {
        return feed(chunk, 0, chunk.length);
    }

    /** @throws SseTooLargeException when an event grows past the cap */
    public List<SseEvent> feed(byte[] chunk, int offset, int length) {
        List<SseEvent> out = new ArrayList<>(0);
        for (int i = offset; i < offset + length; i++) {
            byte b = chunk[i];
            if (b == '\n' && afterCr) {
                afterCr = false;
                continue;
            }
            afterCr = b == '\r';
            if (b == '\n' || b == '\r') {
                endLine(out);
                continue;
            }
            if (++eventBytes > maxEventBytes) {
                throw new SseTooLargeException("SSE event larger than " + maxEventBytes + " bytes");
            }
            if (lineLength == line.length) {
                line = Arrays.copyOf(line, line.length * 2);
            }
            line[lineLength++] = b;
        }
        return out;
    }

    /** Ends the input; returns a last event that was not followed by a blank line, if any. */
    public List<SseEvent> finish() {
        List<SseEvent> out = new ArrayList<>(1);
        if (lineLength > 0) {
            endLine(out);
        }
        dispatch(out);
        return out;
    }

    private void endLine(List<SseEvent> out) {
        String text = new String(line, 0, lineLength, StandardCharsets.UTF_8);
        lineLength = 0;
        if (firstLine) {
            firstLine = false;
            if (text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
        }
        if (text.isEmpty()) {
            dispatch(out);
            return;
        }
        if (text.charAt(0) == ':') {
            return;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "data":
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
                break;
            case "event":
                eventType = value.isEmpty() ? null : value;
                break;
            case "id":
                if (value.indexOf('\0') < 0) {
                    id = value;
                }
                break;
            default:
                // retry and unknown fields mean nothing to A2A
                break;
        }
    }

    /** An event without data lines is dropped, as the SSE spec says. */
    private void dispatch(List<SseEvent> out) {
        if (hasData) {
            out.add(new SseEvent(eventType, id, data.toString()));
        }
        data.setLength(0);
        hasData = false;
        eventType = null;
        id = null;
        eventBytes = 0;
    }
}
