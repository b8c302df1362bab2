package dev.switchboard.gateway;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts an SSE byte stream into whole events (each with its terminating blank line) without parsing
 * them, so the relay forwards the agent's bytes unchanged yet never writes a keepalive comment into
 * the middle of an event. Handles LF, CRLF and CR line ends, split anywhere across chunks.
 */
final class SseFrameSplitter {

    private final long maxFrameBytes;
    private Buffer pending = Buffer.buffer();
    private int scanFrom;
    private int lineLength;
    private boolean afterCr;
    /** A boundary was found at a CR; the frame ends after an LF that may follow. */
    private boolean boundaryAtCr;

    SseFrameSplitter(long maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    /** Appends a chunk; returns the frames it completed, in order. */
    List<Buffer> feed(Buffer chunk) {
        pending.appendBuffer(chunk);
        List<Buffer> frames = new ArrayList<>(2);
        int frameStart = 0;
        int i = scanFrom;
        int end = pending.length();
        while (i < end) {
            byte b = pending.getByte(i);
            if (boundaryAtCr) {
                boundaryAtCr = false;
                afterCr = false;
                int frameEnd = b == '\n' ? i + 1 : i;
                frames.add(pending.getBuffer(frameStart, frameEnd));
                frameStart = frameEnd;
                lineLength = 0;
                i = frameEnd;
                continue;
            }
            if (afterCr && b == '\n') {
                afterCr = false;
                i++;
                continue;
            }
            afterCr = false;
            if (b == '\n' || b == '\r') {
                if (lineLength == 0 && i > frameStart) {
                    if (b == '\r') {
                        boundaryAtCr = true;
                        i++;
                        continue;
                    }
                    frames.add(pending.getBuffer(frameStart, i + 1));
                    frameStart = i + 1;
                } else if (lineLength == 0) {
                    // a blank line with nothing before it: part of no event, pass it on as is
                    frames.add(pending.getBuffer(frameStart, i + 1));
                    frameStart = i + 1;
                }
                lineLength = 0;
                afterCr = b == '\r';
            } else {
                lineLength++;
            }
            i++;
        }
        if (frameStart > 0) {
            pending = pending.getBuffer(frameStart, end);
        }
        scanFrom = pending.length();
        if (pending.length() > maxFrameBytes) {
            throw new IllegalStateException("an SSE event exceeded " + maxFrameBytes + " bytes");
        }
        // an event that arrived whole in one chunk never sat in pending: check complete frames too
        for (Buffer frame : frames) {
            if (frame.length() > maxFrameBytes) {
                throw new IllegalStateException("an SSE event exceeded " + maxFrameBytes + " bytes");
            }
        }
        return frames;
    }

    /** Bytes of an event not yet terminated (sent as they are when the stream ends). */
    Buffer remainder() {
        return pending;
    }
}
