package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Lenient field access for the readers: absent and JSON null are the same, a camelCase name also
 * matches its snake_case spelling (old ProtoJSON writers and the 0.3-era TCK send {@code task_id}),
 * and a value of the wrong type throws {@link A2aFormatException} naming its path.
 */
final class Fields {

    private Fields() {}

    /** The member, or null when absent or JSON null. */
    static JsonNode get(JsonNode object, String name) {
        JsonNode v = object.get(name);
        if (v == null || v.isNull()) {
            String snake = snake(name);
            v = snake.equals(name) ? null : object.get(snake);
        }
        return v == null || v.isNull() ? null : v;
    }

    static boolean has(JsonNode object, String name) {
        return get(object, name) != null;
    }

    static ObjectNode object(JsonNode json, String path) {
        if (json == null || json.isNull()) {
            throw new A2aFormatException(path + ": missing");
        }
        if (!json.isObject()) {
            throw new A2aFormatException(path + ": expected an object, got " + describe(json));
        }
        return (ObjectNode) json;
    }

    static ObjectNode objectOrNull(JsonNode object, String name, String path) {
        JsonNode v = get(object, name);
        return v == null ? null : object(v, path + "." + name);
    }

    static String string(JsonNode object, String name, String path) {
        JsonNode v = get(object, name);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw new A2aFormatException(path + "." + name + ": expected a string, got " + describe(v));
        }
        return v.textValue();
    }

    static String requiredString(JsonNode object, String name, String path) {
        String s = string(object, name, path);
        if (s == null) {
            throw new A2aFormatException(path + "." + name + ": missing");
        }
        return s;
    }

    /** ProtoJSON also allows int32 as a string ("5"). */
    static Integer integer(JsonNode object, String name, String path) {
        JsonNode v = get(object, name);
        if (v == null) {
            return null;
        }
        if (v.isIntegralNumber() && v.canConvertToInt()) {
            return v.intValue();
        }
        if (v.isTextual()) {
            try {
                return Integer.valueOf(v.textValue().trim());
            } catch (NumberFormatException e) {
                // falls through to the error below
            }
        }
        throw new A2aFormatException(path + "." + name + ": expected an integer, got " + describe(v));
    }

    static Long longValue(JsonNode object, String name, String path) {
        JsonNode v = get(object, name);
        if (v == null) {
            return null;
        }
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.longValue();
        }
        throw new A2aFormatException(path + "." + name + ": expected an integer, got " + describe(v));
    }

    static Boolean bool(JsonNode object, String name, String path) {
        JsonNode v = get(object, name);
        if (v == null) {
            return null;
        }
        if (!v.isBoolean()) {
            throw new A2aFormatException(path + "." + name + ": expected a boolean, got " + describe(v));
        }
        return v.booleanValue();
    }

    static boolean flag(JsonNode object, String name, String path) {
        return Boolean.TRUE.equals(bool(object, name, path));
    }

    static Instant timestamp(JsonNode object, String name, String path) {
        String s = string(object, name, path);
        if (s == null || s.isEmpty()) {
            return null;
        }
        try {
            return Timestamps.parse(s);
        } catch (DateTimeParseException e) {
            throw new A2aFormatException(path + "." + name + ": not a timestamp: '" + s + "'", e);
        }
    }

    /** Null when absent, so callers can tell "absent" from "empty" where the wire does (Task.artifacts). */
    static <T> List<T> list(JsonNode object, String name, String path, BiFunction<JsonNode, String, T> reader) {
        JsonNode v = get(object, name);
        if (v == null) {
            return null;
        }
        if (!v.isArray()) {
            throw new A2aFormatException(path + "." + name + ": expected an array, got " + describe(v));
        }
        List<T> out = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
            out.add(reader.apply(v.get(i), path + "." + name + "[" + i + "]"));
        }
        return out;
    }

    static List<String> strings(JsonNode object, String name, String path) {
        return list(object, name, path, (item, itemPath) -> {
            if (item == null || !item.isTextual()) {
                throw new A2aFormatException(itemPath + ": expected a string, got " + describe(item));
            }
            return item.textValue();
        });
    }

    static String describe(JsonNode v) {
        return v == null ? "nothing" : v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    static String snake(String camel) {
        StringBuilder sb = new StringBuilder(camel.length() + 4);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                sb.append('_').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
