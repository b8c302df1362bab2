package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.model.Message;
import java.util.Locale;
import java.util.Set;

/**
 * The behaviour chosen for one message and the text the agent answers with.
 *
 * @param behavior what the agent does
 * @param text the text to echo: the message text without its directive line, or the whole text when
 *     nothing follows the directive
 */
public record Directive(Behavior behavior, String text) {

    /** The metadata key that selects a behaviour, e.g. {@code {"testkit/behavior": "/slow 500"}}. */
    public static final String METADATA_KEY = "testkit/behavior";

    private static final Set<String> NAMES = Set.of("/echo", "/stream", "/slow", "/ask", "/empty", "/fail", "/reject",
            "/newcontext", "/error", "/message", "/http", "/silence", "/drop", "/hold", "/heartbeat", "/auth", "/askdata", "/busy",
            "/first", "/orphan", "/retryafter", "/redirect", "/noids", "/nocontext", "/end", "/mute", "/fulltask", "/linger", "/vanish", "/chaos",
            "/approve", "/approvemany", "/approvenested", "/askuser", "/steps", "/kfail");

    /**
     * Picks the behaviour for a message: its {@value #METADATA_KEY} metadata first, then a directive on
     * its first line, then {@code fallback}.
     *
     * @throws IllegalArgumentException when the metadata or the directive line is malformed
     */
    public static Directive of(Message message, Behavior fallback) {
        String text = message.text();
        JsonNode chosen = message.metadata() == null ? null : message.metadata().get(METADATA_KEY);
        if (chosen != null && !chosen.isNull()) {
            if (!chosen.isTextual()) {
                throw new IllegalArgumentException("metadata " + METADATA_KEY + " must be a string directive such as \"/slow 500\"");
            }
            return new Directive(Behavior.parse(chosen.asText()), text);
        }
        text = withoutChatPrefix(text);
        int newline = text.indexOf('\n');
        String firstLine = newline < 0 ? text : text.substring(0, newline);
        if (!isDirective(firstLine)) {
            return new Directive(fallback, text);
        }
        String rest = newline < 0 ? "" : text.substring(newline + 1);
        return new Directive(Behavior.parse(firstLine), rest.isEmpty() ? text : rest);
    }

    /**
     * A chat bridge starts a person's text with a line such as {@code [Web: Ada (u1) <ada@x>]}; the
     * directive is on the line after it, so the demo agents obey what people type in the web chat.
     */
    static String withoutChatPrefix(String text) {
        int newline = text.indexOf('\n');
        if (newline > 0 && text.startsWith("[") && text.charAt(newline - 1) == ']' && text.substring(0, newline).contains(": ")) {
            return text.substring(newline + 1);
        }
        return text;
    }

    /** Only known names count, so a first line such as "/usr/bin is a path" stays plain text. */
    private static boolean isDirective(String line) {
        return line.startsWith("/") && NAMES.contains(line.strip().split("\\s+", 2)[0].toLowerCase(Locale.ROOT));
    }
}
