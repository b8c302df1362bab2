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
 * <p>The turn keeps it as one opaque string, {@code <trace-id>-<flags>}, or {@code <trace-id>-<flags>-<parent-id>}
 * when the message came with a traceparent (the caller's span, which a turn's span is a child of when tracing is on),
 * then a newline and the tracestate when there is one (a header value holds no newline).
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
        return of(traceparent, tracestate, null);
    }

    /**
     * As above; without a valid traceparent, the trace is derived from {@code messageId} (when given): whatever comes
     * after the turn (a person's feedback on its answer, {@link AnswerFeedback}) finds the turn's trace from its
     * message id alone.
     */
    public static String of(String traceparent, String tracestate, String messageId) {
        var m = traceparent == null ? null : TRACEPARENT.matcher(traceparent.strip());
        if (m != null && m.matches() && !"ff".equals(m.group(1)) && (m.group(5) == null || !"00".equals(m.group(1)))
                && !ZERO_TRACE.equals(m.group(2)) && !ZERO_SPAN.equals(m.group(3))) {
            String kept = m.group(2) + "-" + m.group(4) + "-" + m.group(3);
            return tracestate == null || tracestate.isBlank() || tracestate.contains("\n") ? kept : kept + "\n" + tracestate;
        }
        return messageId == null ? hex(16) + "-01" : derived(messageId);
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

    /**
     * The headers of one call of the turn when tracing is off: its trace id, a fresh span id, and its tracestate
     * unchanged.
     */
    static Map<String, String> headers(String trace) {
        Parsed p = parse(trace == null ? of(null, null) : trace);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("traceparent", "00-" + p.traceId() + "-" + hex(8) + "-" + p.flags());
        if (p.tracestate() != null) {
            headers.put("tracestate", p.tracestate());
        }
        return headers;
    }

    /**
     * A stored trace read back.
     *
     * @param parentSpanId the span of whoever sent the message, null when none came (or it was stored without it)
     * @param tracestate null when none
     */
    record Parsed(String traceId, String flags, String parentSpanId, String tracestate) {

        /** The caller's traceparent, when there is a caller's span to continue. */
        String parentTraceparent() {
            return parentSpanId == null ? null : "00-" + traceId + "-" + parentSpanId + "-" + flags;
        }
    }

    static Parsed parse(String stored) {
        int nl = stored.indexOf('\n');
        String[] ids = (nl < 0 ? stored : stored.substring(0, nl)).split("-");
        return new Parsed(ids[0], ids[1], ids.length > 2 ? ids[2] : null, nl < 0 ? null : stored.substring(nl + 1));
    }

    /**
     * The span id of a turn's own span (when tracing is on): derived from its trace and message, so every process
     * that works on the turn, before and after a restart, names the same span.
     */
    static String turnSpanId(String traceId, String threadId, String messageId) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] d = sha.digest(("turn\n" + traceId + "\n" + threadId + "\n" + messageId).getBytes(StandardCharsets.UTF_8));
            byte[] id = java.util.Arrays.copyOf(d, 8);
            if (isZero(id)) {
                id[7] = 1; // an all-zero span id is invalid
            }
            return HexFormat.of().formatHex(id);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
