package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import java.util.Locale;

/**
 * B12: the category of a failed task, read only from the status message's text (up to 32 parts,
 * 4096 characters) and the metadata keys {@code code}, {@code error_code}, {@code kagent_error_code}.
 * The codes are the agent's own classification, so they are read first; nothing read here is shown. kagent's codes
 * (GenAI finish reasons: {@code MAX_TOKENS}, {@code SAFETY}, {@code RECITATION}, …; {@code API_ERROR}) fit a category
 * only where the seed has one: {@code MAX_TOKENS} is the context limit; the content-policy reasons have none.
 */
public enum FailureCategory {
    // MAX_TOKENS is kagent's code (a GenAI finish reason) for an answer cut at the model's token limit
    CONTEXT_LIMIT("context limit", "context_length", "context length", "context window", "context limit",
            "too many tokens", "maximum context", "token limit", "max_tokens"),
    RATE_LIMIT("rate limit", "rate_limit", "rate limit", "ratelimit", "too many requests", "429", "quota",
            "resource_exhausted"),
    AUTHENTICATION("authentication", "unauthenticated", "authentication", "invalid api key", "invalid_api_key",
            "401", "credentials", "unauthorized"),
    TIMEOUT("timeout", "timeout", "timed out", "deadline_exceeded", "deadline exceeded"),
    PERMISSION("permission", "permission", "forbidden", "403", "access denied", "not authorized");

    static final int MAX_PARTS = 32;
    static final int MAX_CHARS = 4096;
    private static final String[] METADATA_KEYS = {"code", "error_code", "kagent_error_code"};

    private final String label;
    private final String[] needles;

    FailureCategory(String label, String... needles) {
        this.label = label;
        this.needles = needles;
    }

    public String label() {
        return label;
    }

    /** The category of a failed task's status message, or null when none is recognised. */
    public static FailureCategory of(Message statusMessage) {
        if (statusMessage == null) {
            return null;
        }
        FailureCategory byCode = match(codes(statusMessage));
        return byCode != null ? byCode : match(statusText(statusMessage));
    }

    /** The values of the three metadata keys, and of no other. */
    static String codes(Message statusMessage) {
        StringBuilder codes = new StringBuilder();
        for (String key : METADATA_KEYS) {
            String v = statusMessage.metadataText(key);
            if (v != null) {
                codes.append(v).append(' ');
            }
        }
        return codes.toString();
    }

    /** The text of the first 32 parts, cut at 4096 characters. */
    static String statusText(Message statusMessage) {
        StringBuilder text = new StringBuilder();
        int parts = 0;
        for (Part p : statusMessage.parts()) {
            if (parts++ >= MAX_PARTS || text.length() >= MAX_CHARS) {
                break;
            }
            if (p instanceof Part.Text t && t.text() != null) {
                if (text.length() > 0) {
                    text.append(' '); // parts are separate words
                }
                text.append(t.text(), 0, Math.min(t.text().length(), Math.max(0, MAX_CHARS - text.length())));
            }
        }
        return text.toString();
    }

    static FailureCategory match(String haystack) {
        String h = haystack.toLowerCase(Locale.ROOT);
        for (FailureCategory c : values()) {
            for (String n : c.needles) {
                if (contains(h, n)) {
                    return c;
                }
            }
        }
        return null;
    }

    /** A numeric needle (an HTTP status) must stand alone: "4290 rows" is not a 429. */
    private static boolean contains(String haystack, String needle) {
        boolean numeric = Character.isDigit(needle.charAt(0));
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            if (!numeric) {
                return true;
            }
            int end = i + needle.length();
            boolean before = i == 0 || !Character.isLetterOrDigit(haystack.charAt(i - 1));
            boolean after = end == haystack.length() || !Character.isLetterOrDigit(haystack.charAt(end));
            if (before && after) {
                return true;
            }
        }
        return false;
    }
}
