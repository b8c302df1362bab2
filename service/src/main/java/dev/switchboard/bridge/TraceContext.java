package dev.switchboard.bridge;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * W3C trace context for a turn (seed: What Agent Kourier sends, "It may also carry the W3C trace context headers
 * traceparent and tracestate"). One trace per turn: every call made for it carries the same trace id, each with a
 * fresh span id. A chat message that came with a valid {@code traceparent} continues that trace (its sampled flag
 * kept) and passes its {@code tracestate} on unchanged.
 *
 * <p>The turn keeps it as one opaque string, {@code <trace-id>-<flags>}, then a newline and the tracestate when
 * there is one (a header value holds no newline).
 */
public final class TraceContext {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern TRACEPARENT =
            Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?");
    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_SPAN = "0".repeat(16);

    private TraceContext() {}

    /** The turn's trace: the chat message's own when its traceparent is valid, else a new one (sampled). */
    public static String of(String traceparent, String tracestate) {
        var m = traceparent == null ? null : TRACEPARENT.matcher(traceparent.strip());
        if (m != null && m.matches() && !"ff".equals(m.group(1)) && (m.group(5) == null || !"00".equals(m.group(1)))
                && !ZERO_TRACE.equals(m.group(2)) && !ZERO_SPAN.equals(m.group(3))) {
            String kept = m.group(2) + "-" + m.group(4);
            return tracestate == null || tracestate.isBlank() || tracestate.contains("\n") ? kept : kept + "\n" + tracestate;
        }
        return hex(16) + "-01";
    }

    /** A trace for a turn stored without one: derived from its messageId, so it is the same at every call. */
    static String derived(String messageId) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(messageId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 16) + "-01";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The headers of one call of the turn: its trace id, a fresh span id, and its tracestate unchanged. */
    static Map<String, String> headers(String trace) {
        String stored = trace == null ? of(null, null) : trace;
        int nl = stored.indexOf('\n');
        String idAndFlags = nl < 0 ? stored : stored.substring(0, nl);
        int dash = idAndFlags.indexOf('-');
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("traceparent", "00-" + idAndFlags.substring(0, dash) + "-" + hex(8) + idAndFlags.substring(dash));
        if (nl >= 0) {
            headers.put("tracestate", stored.substring(nl + 1));
        }
        return headers;
    }

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        do {
            RANDOM.nextBytes(b);
        } while (isZero(b));
        return HexFormat.of().formatHex(b);
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
