package dev.switchboard.protocol.codec;

/** A JSON document that does not hold a valid A2A value; the message names the field and the problem. */
public class A2aFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public A2aFormatException(String message) {
        super(message);
    }

    public A2aFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
