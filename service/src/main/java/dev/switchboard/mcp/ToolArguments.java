package dev.switchboard.mcp;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * A tool call's {@code arguments}, read with errors that name the argument and what it must be. An argument the tool
 * does not take is refused too: a model that misspells {@code taskId} must hear so, not have it ignored.
 */
final class ToolArguments {

    /** A bad argument; its message is what the client is told. */
    static final class Bad extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Bad(String message) {
            super(message, null, false, false);
        }
    }

    private final String tool;
    private final Map<String, Object> args;

    ToolArguments(String tool, Map<String, Object> args, Set<String> known) {
        this.tool = tool;
        this.args = args == null ? Map.of() : args;
        for (String name : this.args.keySet()) {
            if (!known.contains(name)) {
                throw new Bad("invalid arguments for " + tool + ": unknown argument '" + clip(name) + "' (it takes "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }

    /** A string argument that must be there and not blank. */
    String required(String name) {
        String v = optional(name);
        if (v == null || v.isBlank()) {
            throw new Bad("invalid arguments for " + tool + ": '" + name + "' is required (a non-empty string)");
        }
        return v;
    }

    /** A string argument, or null when absent (or JSON null). */
    String optional(String name) {
        Object v = args.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new Bad("invalid arguments for " + tool + ": '" + name + "' must be a string, not " + kind(v));
        }
        return s;
    }

    /** An id argument: at most 256 characters, as A2A's ids are in practice. */
    String optionalId(String name) {
        String v = optional(name);
        if (v != null && (v.isBlank() || v.length() > 256)) {
            throw new Bad("invalid arguments for " + tool + ": '" + name + "' must be a non-empty id of at most 256 characters");
        }
        return v;
    }

    /** A string argument of at most {@code maxBytes} UTF-8 bytes. */
    String requiredText(String name, int maxBytes) {
        String v = required(name);
        // a cheap bound first: a char is at most 3 UTF-8 bytes
        if ((long) v.length() * 3 > maxBytes && v.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new Bad("invalid arguments for " + tool + ": '" + name + "' is larger than " + maxBytes
                    + " bytes (Server.spec.mcp.maxTextBytes)");
        }
        return v;
    }

    /** A whole number of seconds in [1, max], or null. */
    Long optionalSeconds(String name, long max) {
        Object v = args.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw new Bad("invalid arguments for " + tool + ": '" + name + "' must be a whole number of seconds, not "
                    + kind(v));
        }
        long s = n.longValue();
        if (s < 1 || s > max) {
            throw new Bad("invalid arguments for " + tool + ": '" + name + "' must be between 1 and " + max);
        }
        return s;
    }

    /** A list of strings (tags), or empty. */
    java.util.List<String> optionalStrings(String name, int maxItems) {
        Object v = args.get(name);
        if (v == null) {
            return java.util.List.of();
        }
        if (v instanceof String s) {
            return s.isBlank() ? java.util.List.of() : java.util.List.of(s);
        }
        if (!(v instanceof java.util.List<?> list) || list.size() > maxItems
                || !list.stream().allMatch(x -> x instanceof String)) {
            throw new Bad("invalid arguments for " + tool + ": '" + name + "' must be a list of at most " + maxItems
                    + " strings");
        }
        return list.stream().map(String.class::cast).toList();
    }

    private static String kind(Object v) {
        if (v instanceof Number) {
            return "a number";
        }
        if (v instanceof Boolean) {
            return "a boolean";
        }
        if (v instanceof Map) {
            return "an object";
        }
        if (v instanceof java.util.List) {
            return "an array";
        }
        return "a " + v.getClass().getSimpleName();
    }

    private static String clip(String s) {
        return s.length() > 64 ? s.substring(0, 64) + "…" : s;
    }
}
