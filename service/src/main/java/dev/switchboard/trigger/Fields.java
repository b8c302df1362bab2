package dev.switchboard.trigger;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading a payload's fields, each problem a {@link BadPayload} naming the field. */
final class Fields {

    private Fields() {}

    static JsonNode object(JsonNode parent, String name, String shownAs, boolean required) {
        JsonNode v = parent.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw new BadPayload(shownAs, "is required");
            }
            return null;
        }
        if (!v.isObject()) {
            throw new BadPayload(shownAs, "must be an object");
        }
        return v;
    }

    static String text(JsonNode parent, String name, String shownAs, boolean required) {
        JsonNode v = parent.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw new BadPayload(shownAs, "is required");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new BadPayload(shownAs, "must be a string");
        }
        if (required && v.asText().isBlank()) {
            throw new BadPayload(shownAs, "is required");
        }
        return v.asText();
    }

    /** One of {@code allowed}; shown in the problem as the choices, never as the value sent. */
    static String oneOf(JsonNode parent, String name, String shownAs, List<String> allowed) {
        String v = text(parent, name, shownAs, true);
        if (!allowed.contains(v)) {
            throw new BadPayload(shownAs, "must be " + String.join(" or ", allowed));
        }
        return v;
    }

    /** An object whose values are all strings (Alertmanager's labels and annotations); empty when absent. */
    static Map<String, String> strings(JsonNode parent, String name, String shownAs, boolean required) {
        JsonNode v = parent.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw new BadPayload(shownAs, "is required");
            }
            return Map.of();
        }
        if (!v.isObject()) {
            throw new BadPayload(shownAs, "must be an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        var it = v.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (!e.getValue().isTextual()) {
                throw new BadPayload(shownAs, "must be an object of strings");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** An object of scalars (strings, numbers, booleans), each as text; empty when absent. */
    static Map<String, String> scalars(JsonNode parent, String name, String shownAs) {
        JsonNode v = parent.get(name);
        if (v == null || v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw new BadPayload(shownAs, "must be an object of strings, numbers or booleans");
        }
        Map<String, String> out = new LinkedHashMap<>();
        var it = v.fields();
        while (it.hasNext()) {
            var e = it.next();
            JsonNode x = e.getValue();
            if (!(x.isTextual() || x.isNumber() || x.isBoolean() || x.isNull())) {
                throw new BadPayload(shownAs, "must be an object of strings, numbers or booleans");
            }
            out.put(e.getKey(), x.isNull() ? "" : x.asText());
        }
        return out;
    }

    static List<JsonNode> list(JsonNode parent, String name, String shownAs) {
        JsonNode v = parent.get(name);
        if (v == null || v.isNull()) {
            throw new BadPayload(shownAs, "is required");
        }
        if (!v.isArray()) {
            throw new BadPayload(shownAs, "must be a list");
        }
        List<JsonNode> out = new ArrayList<>();
        v.forEach(out::add);
        return out;
    }

    /** At most {@code max} characters, the rest said to be cut. */
    static String bounded(String s, int max) {
        if (s == null) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max) + "… (" + (s.length() - max) + " more characters cut)";
    }

    /** {@code key: value} lines, each value bounded; the whole bounded too. */
    static String lines(Map<String, String> map, int maxValue, int maxTotal) {
        StringBuilder b = new StringBuilder();
        for (var e : map.entrySet()) {
            b.append(bounded(e.getKey(), 200)).append(": ").append(bounded(e.getValue(), maxValue)).append('\n');
        }
        return b.isEmpty() ? "(none)\n" : bounded(b.toString(), maxTotal);
    }
}
