package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${NAME}} and {@code ${NAME:-default}} in a file's string values, from the environment. An unset variable
 * without a default is an error: a silently empty admin token would be an open door.
 */
final class Placeholders {

    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    private final Map<String, String> env;

    Placeholders(Map<String, String> env) {
        this.env = env;
    }

    /** A copy of {@code node} with every string expanded; {@code path} names the field in errors. */
    JsonNode expand(DocumentLocation doc, String path, JsonNode node) {
        if (node.isTextual()) {
            return TextNode.valueOf(expand(doc, path, node.asText()));
        }
        if (node.isObject()) {
            ObjectNode copy = ((ObjectNode) node).objectNode();
            node.fields().forEachRemaining(e -> copy.set(e.getKey(),
                    expand(doc, path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue())));
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = ((ArrayNode) node).arrayNode();
            for (int i = 0; i < node.size(); i++) {
                copy.add(expand(doc, path + "[" + i + "]", node.get(i)));
            }
            return copy;
        }
        return node;
    }

    private String expand(DocumentLocation doc, String path, String value) {
        Matcher m = VAR.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = env.get(m.group(1));
            if (v == null) {
                if (m.group(2) == null) {
                    throw doc.error(path, "environment variable " + m.group(1) + " is not set (write ${"
                            + m.group(1) + ":-} to allow it to be empty)");
                }
                v = m.group(2);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }
}
