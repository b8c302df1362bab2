package dev.switchboard.protocol;

/**
 * Tells the A2A version of a request from its {@code A2A-Version} header (or query parameter),
 * cross-checked with the method grammar.
 */
public final class VersionDetector {

    private VersionDetector() {}

    /**
     * @param headerValue the A2A-Version header or query parameter, possibly null or empty (= 0.3)
     * @param method the JSON-RPC method name, possibly null
     * @return the version, or a failure naming the problem (unsupported version; a 0.3 method under a 1.0 header)
     */
    public static Detection detect(String headerValue, String method) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** The outcome of detection. */
    public sealed interface Detection permits Detected, Unsupported {}

    /** {@code lenient} is true when the header said nothing but the method grammar said 1.0. */
    public record Detected(ProtocolVersion version, boolean lenient) implements Detection {}

    /** An A2A-Version we do not speak (-32009), or a header contradicting the method grammar. */
    public record Unsupported(String reason) implements Detection {}
}
