package dev.switchboard.protocol.sse;

/** An SSE event exceeded the reader's size cap. */
public class SseTooLargeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SseTooLargeException(String message) {
        super(message);
    }
}
