package dev.switchboard.protocol;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells the A2A version of a request from its {@code A2A-Version} header (or query parameter),
 * cross-checked with the method grammar. Missing or empty means 0.3 (spec §3.6.2); a patch number
 * is ignored ({@code 1.0.1} is 1.0). A known 1.0 method without a header is served as 1.0, as a2a-js
 * does, and flagged lenient; a known method of the other version under an explicit header is a
 * contradiction and unsupported. Unknown method names leave the header's word final.
 */
public final class VersionDetector {

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(\\.\\d+)?");

    private VersionDetector() {}

    /**
     * @param headerValue the A2A-Version header or query parameter, possibly null or empty (= 0.3)
     * @param method the JSON-RPC method name, possibly null
     * @return the version, or a failure naming the problem (unsupported version; a 0.3 method under a 1.0 header)
     */
    public static Detection detect(String headerValue, String method) {
        Optional<ProtocolVersion> grammar = grammarOf(method);
        String header = headerValue == null ? "" : headerValue.trim();
        if (header.isEmpty()) {
            return grammar.filter(v -> v == ProtocolVersion.V1_0)
                    .<Detection>map(v -> new Detected(v, true))
                    .orElse(new Detected(ProtocolVersion.V0_3, false));
        }
        Optional<ProtocolVersion> declared = parse(header);
        if (declared.isEmpty()) {
            return new Unsupported("A2A-Version '" + headerValue + "' is not supported; supported versions are 1.0 and 0.3");
        }
        ProtocolVersion version = declared.get();
        if (grammar.isPresent() && grammar.get() != version) {
            return new Unsupported("method '" + method + "' is A2A " + grammar.get().label()
                    + " but A2A-Version says " + version.label());
        }
        return new Detected(version, false);
    }

    /** "1.0", "1.0.x" → 1.0; "0.3", "0.3.x" → 0.3; anything else empty. */
    public static Optional<ProtocolVersion> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        Matcher m = VERSION.matcher(value.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        String majorMinor = m.group(1) + "." + m.group(2);
        for (ProtocolVersion v : ProtocolVersion.values()) {
            if (v.label().equals(majorMinor)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** The version whose method table holds this name; empty for unknown names. */
    private static Optional<ProtocolVersion> grammarOf(String method) {
        return A2aMethod.fromName(method).map(m -> method.equals(m.v10Name()) ? ProtocolVersion.V1_0 : ProtocolVersion.V0_3);
    }

    /** The outcome of detection. */
    public sealed interface Detection permits Detected, Unsupported {}

    /** {@code lenient} is true when the header said nothing but the method grammar said 1.0. */
    public record Detected(ProtocolVersion version, boolean lenient) implements Detection {}

    /** An A2A-Version we do not speak (-32009), or a header contradicting the method grammar. */
    public record Unsupported(String reason) implements Detection {}
}
