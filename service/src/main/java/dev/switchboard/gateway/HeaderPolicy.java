package dev.switchboard.gateway;

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

    private static final Set<String> PASSED = Set.of(
            "a2a-version", "a2a-extensions", "accept", "traceparent", "tracestate");

    private static final Set<String> NEVER = Set.of(
            "x-real-ip", "x-user-id", "authorization", "cookie", "proxy-authorization",
            "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade",
            "proxy-connection", "proxy-authenticate", "host", "content-length", "content-type");

    private final String callerIdHeader;

    public HeaderPolicy(String callerIdHeader) {
        this.callerIdHeader = callerIdHeader;
    }

    public String callerIdHeader() {
        return callerIdHeader;
    }

    /** The headers of the upstream request. */
    public MultiMap outbound(MultiMap inbound, String callerId, Map<String, String> backendHeaders) {
        Set<String> connectionNamed = connectionTokens(inbound.get("Connection"));
        String callerIdLower = callerIdHeader.toLowerCase(Locale.ROOT);
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        for (Map.Entry<String, String> h : inbound) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (NEVER.contains(name) || name.startsWith("x-forwarded-") || connectionNamed.contains(name)
                    || name.equals(callerIdLower)) {
                continue;
            }
            if (name.startsWith("x-") || PASSED.contains(name)) {
                out.add(h.getKey(), h.getValue());
            }
        }
        out.set("Content-Type", "application/json");
        out.set(callerIdHeader, callerId);
        backendHeaders.forEach(out::set);
        return out;
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
