package dev.switchboard.gateway;

import io.netty.util.AsciiString;
import io.vertx.core.MultiMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which caller headers reach the agent (G5). Forwarded: {@code X-*} headers, plus A2A's own headers, {@code Accept}
 * and W3C trace context. Never forwarded: credentials ({@code Authorization}, {@code Cookie},
 * {@code Proxy-Authorization}), hop-by-hop headers and any header the caller names in {@code Connection}, every
 * other non-{@code X-} header, and the {@code X-} headers that say who or where the caller is (issue 22, M4): agents
 * written to sit behind oauth2-proxy, an IAP, an ALB, Azure's or Cloudflare's access proxy or another gateway
 * believe them, and the gateway is none of those, so a caller could claim any user. Those are
 * <ul>
 *   <li>the families a proxy asserts or a cloud signs: {@code X-Forwarded-*}, {@code X-Original-*},
 *       {@code X-Real-IP}, {@code X-Client-*}, {@code X-Amz-*}, {@code X-Goog-*}, {@code X-MS-*};
 *   <li>any whose name speaks of a person or a credential: it contains user, auth, identit(y), principal, email,
 *       token, jwt, session, caller, credential, remote, oidc, iap (as a word), password, secret, cert, api-key,
 *       apikey, assertion or ssl-client ({@code X-Auth-Request-User}, {@code X-Remote-User},
 *       {@code X-Amzn-Oidc-Data}, {@code X-KubeMQ-Caller-ID}, {@code X-Api-Key}, …);
 *   <li>the configured caller-id header, whatever its name.
 * </ul>
 * Plain {@code X-} headers ({@code X-Team}, {@code X-Request-Id}, {@code X-A2A-Extensions},
 * {@code X-Amzn-Trace-Id}) pass. Then the gateway adds the backend's static headers, which win over anything the
 * caller sent, and last its caller id, which nothing else sets.
 *
 * <p>This runs for every header of every call: names are compared where they lie (no lower-casing, no substring),
 * keywords are looked up by the character they start with, and the inbound map is walked without an iterator.
 */
public final class HeaderPolicy {

    /**
     * Forwarded besides {@code X-*}. Everything else is dropped: credentials ({@code Authorization}, {@code Cookie},
     * {@code Proxy-Authorization}), hop-by-hop headers, {@code Host}, {@code Content-Length}, {@code Content-Type}.
     */
    private static final String[] PASSED_NAMES = {"accept", "a2a-version", "a2a-extensions", "traceparent", "tracestate"};

    /** Dropped {@code X-} families: what follows {@code X-} at the start of the name. */
    private static final String[] IDENTITY_PREFIXES = {"forwarded-", "original-", "real-ip", "client-", "amz-", "goog-",
        "ms-"};

    /** Dropped wherever they occur in an {@code X-} name, lower case. */
    private static final String[] IDENTITY_WORDS = {"user", "auth", "identit", "principal", "email", "token", "jwt",
        "session", "caller", "credential", "remote", "oidc", "-iap-", "password", "secret", "cert", "api-key", "apikey",
        "assertion", "ssl-client"};

    /** {@link #IDENTITY_WORDS} by their first character ('a'–'z', or '-' at 26): a name is scanned once. */
    private static final String[][] WORDS_BY_FIRST = new String[27][];

    static {
        java.util.List<java.util.List<String>> by = new java.util.ArrayList<>();
        for (int i = 0; i < 27; i++) {
            by.add(new java.util.ArrayList<>());
        }
        for (String w : IDENTITY_WORDS) {
            by.get(slot(w.charAt(0))).add(w);
        }
        for (int i = 0; i < 27; i++) {
            WORDS_BY_FIRST[i] = by.get(i).toArray(String[]::new);
        }
    }

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
        if (!backendHeaders.isEmpty()) {
            backendHeaders.forEach(out::set);
        }
        out.set(callerIdName, callerId); // last: the caller id is ours alone
    }

    /** Whether a caller's header reaches the agent; compared without lower-casing (this runs for every header of every call). */
    private boolean forwarded(String name, Set<String> connectionNamed) {
        boolean custom = name.length() >= 2 && (name.charAt(0) == 'x' || name.charAt(0) == 'X') && name.charAt(1) == '-';
        if (custom) {
            if (identity(name) || name.equalsIgnoreCase(callerIdHeader)) {
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

    /** Whether an {@code X-} header's name is one of the identity families or holds an identity word. */
    static boolean identity(String name) {
        for (String p : IDENTITY_PREFIXES) {
            if (name.regionMatches(true, 2, p, 0, p.length())) {
                return true;
            }
        }
        int length = name.length();
        for (int i = 1; i < length; i++) {
            int slot = slot(name.charAt(i));
            if (slot < 0) {
                continue;
            }
            for (String w : WORDS_BY_FIRST[slot]) {
                if (length - i >= w.length() && name.regionMatches(true, i, w, 0, w.length())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A name character's index into {@link #WORDS_BY_FIRST}, or -1 for one no word starts with. */
    private static int slot(char c) {
        if (c == '-') {
            return 26;
        }
        char lower = (char) (c | 0x20);
        return lower >= 'a' && lower <= 'z' ? lower - 'a' : -1;
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
