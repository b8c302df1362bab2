package dev.switchboard.gateway;

import io.netty.util.AsciiString;
import io.vertx.core.MultiMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which caller headers reach the agent (G5). Forwarded: every {@code X-*} header except the identity
 * headers below, plus A2A's own headers, {@code Accept} and W3C trace context. Never forwarded:
 * headers that assert who or where the caller is ({@code X-User-Id}, {@code X-Forwarded-*},
 * {@code X-Real-IP}: agents written for a trusted proxy believe them, and a caller could claim any
 * user), credentials ({@code Authorization}, {@code Cookie}, {@code Proxy-Authorization}),
 * hop-by-hop headers and any header the caller names in {@code Connection}, and a caller's own copy of
 * the caller-id header (it would let a caller impersonate another). Then the gateway adds the caller id
 * and the backend's static headers, which win over anything the caller sent.
 */
public final class HeaderPolicy {

    /**
     * Forwarded besides {@code X-*}. Everything else is dropped: credentials ({@code Authorization}, {@code Cookie},
     * {@code Proxy-Authorization}), hop-by-hop headers, {@code Host}, {@code Content-Length}, {@code Content-Type}.
     */
    private static final String[] PASSED_NAMES = {"accept", "a2a-version", "a2a-extensions", "traceparent", "tracestate"};

    private static final AsciiString CONNECTION = AsciiString.cached("Connection");
    private static final AsciiString CONTENT_TYPE = AsciiString.cached("Content-Type");
    private static final AsciiString JSON = AsciiString.cached("application/json");

    private final String callerIdHeader;
    /** The same name as an {@link AsciiString}, whose hash a header map computes once, not per call. */
    private final AsciiString callerIdName;

    public HeaderPolicy(String callerIdHeader) {
        this.callerIdHeader = callerIdHeader;
        this.callerIdName = AsciiString.of(callerIdHeader);
    }

    public String callerIdHeader() {
        return callerIdHeader;
    }

    /** The headers of the upstream request. */
    public MultiMap outbound(MultiMap inbound, String callerId, Map<String, String> backendHeaders) {
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        writeTo(out, inbound, callerId, backendHeaders);
        return out;
    }

    /** Writes the headers of the upstream request into its own header map (no map in between). */
    public void writeTo(MultiMap out, MultiMap inbound, String callerId, Map<String, String> backendHeaders) {
        Set<String> connectionNamed = connectionTokens(inbound.get(CONNECTION));
        // forEach walks the map's own entries: no iterator, no entry wrapper per header
        inbound.forEach((name, value) -> {
            if (forwarded(name, connectionNamed)) {
                out.add(name, value);
            }
        });
        out.set(CONTENT_TYPE, JSON);
        out.set(callerIdName, callerId);
        if (!backendHeaders.isEmpty()) {
            backendHeaders.forEach(out::set);
        }
    }

    /** Whether a caller's header reaches the agent; compared without lower-casing (this runs for every header of every call). */
    private boolean forwarded(String name, Set<String> connectionNamed) {
        boolean custom = name.length() >= 2 && (name.charAt(0) == 'x' || name.charAt(0) == 'X') && name.charAt(1) == '-';
        if (custom) {
            if (name.regionMatches(true, 0, "x-forwarded-", 0, 12) || name.equalsIgnoreCase("x-real-ip")
                    || name.equalsIgnoreCase("x-user-id") || name.equalsIgnoreCase(callerIdHeader)) {
                return false;
            }
        } else if (!passed(name)) {
            return false;
        }
        if (!connectionNamed.isEmpty()) {
            for (String t : connectionNamed) {
                if (t.equalsIgnoreCase(name)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean passed(String name) {
        for (String p : PASSED_NAMES) {
            if (p.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> connectionTokens(String connection) {
        if (connection == null || connection.isBlank()) {
            return Set.of();
        }
        java.util.HashSet<String> tokens = new java.util.HashSet<>();
        for (String t : connection.split(",")) {
            tokens.add(t.trim().toLowerCase(Locale.ROOT));
        }
        return tokens;
    }
}
