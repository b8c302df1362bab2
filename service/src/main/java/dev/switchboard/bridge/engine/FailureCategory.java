package dev.switchboard.bridge.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import java.util.Locale;

/**
 * B12: the category of a failed task, read only from the status message's text (up to 32 parts,
 * 4096 characters) and the metadata keys {@code code}, {@code error_code}, {@code kagent_error_code}.
 */
public enum FailureCategory {
    CONTEXT_LIMIT("context limit", "context_length", "context length", "context window", "context limit",
            "too many tokens", "maximum context", "token limit"),
    RATE_LIMIT("rate limit", "rate_limit", "rate limit", "ratelimit", "too many requests", "429", "quota"),
    AUTHENTICATION("authentication", "unauthenticated", "authentication", "invalid api key", "invalid_api_key",
            "401", "credentials"),
    TIMEOUT("timeout", "timeout", "timed out", "deadline_exceeded", "deadline exceeded"),
    PERMISSION("permission", "permission", "forbidden", "403", "access denied", "not authorized", "unauthorized");

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
        StringBuilder text = new StringBuilder();
        JsonNode metadata = statusMessage.metadata();
        if (metadata != null) {
            for (String key : METADATA_KEYS) {
                JsonNode v = metadata.get(key);
                if (v != null && v.isValueNode()) {
                    text.append(v.asText()).append(' ');
                }
            }
        }
        int parts = 0;
        for (Part p : statusMessage.parts()) {
            if (parts++ >= MAX_PARTS || text.length() >= MAX_CHARS) {
                break;
            }
            if (p instanceof Part.Text t && t.text() != null) {
                text.append(t.text(), 0, Math.min(t.text().length(), MAX_CHARS)).append(' ');
            }
        }
        String haystack = text.length() > MAX_CHARS + 512 ? text.substring(0, MAX_CHARS + 512) : text.toString();
        haystack = haystack.toLowerCase(Locale.ROOT);
        for (FailureCategory c : values()) {
            for (String n : c.needles) {
                if (haystack.contains(n)) {
                    return c;
                }
            }
        }
        return null;
    }
}
