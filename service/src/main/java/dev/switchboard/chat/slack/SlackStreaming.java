package dev.switchboard.chat.slack;

import java.util.Locale;

/**
 * How a SlackApp streams an answer: Slack's native streaming ({@code chat.startStream} / {@code appendStream} /
 * {@code stopStream}, one message per answer, not bound by {@code chat.update}'s Tier 3 budget), edits of a posted
 * message ({@code chat.update}), or native where the workspace accepts it and edits where it does not (auto).
 */
public enum SlackStreaming {
    NATIVE, EDIT, AUTO;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SlackStreaming of(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
