package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.config.FieldSchema.Flag;
import dev.switchboard.config.FieldSchema.Fraction;
import dev.switchboard.config.FieldSchema.Obj;
import dev.switchboard.config.FieldSchema.ObjectList;
import dev.switchboard.config.FieldSchema.Span;
import dev.switchboard.config.FieldSchema.Text;
import dev.switchboard.config.FieldSchema.TextList;
import dev.switchboard.config.FieldSchema.TextMap;
import dev.switchboard.config.FieldSchema.WholeNumber;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Holds a document of a {@link ResourceKind} to its description before the loader reads its values: a field the
 * description does not list (a typo would otherwise be a silently ignored setting), a value of the wrong type, a value
 * outside an enum, a number under its minimum (or a fraction outside its range) and a duration of 0 are refused,
 * naming the field. What is left to each kind's reader is what the description cannot say: required fields with a
 * reason of their own, rules between fields, and the forms of URLs, addresses and ids.
 *
 * <p>Values written as {@code ${VAR}} arrive as strings, so a string of digits counts as a whole number and
 * {@code "true"}/{@code "false"} as a flag, as the loader has always read them.
 */
public final class ShapeCheck {

    /** The top level of a resource; {@code status} is written by watch mode and not read here. */
    private static final List<String> TOP = List.of("apiVersion", "kind", "metadata", "spec", "status");
    /** The top level of a Secret, as Kubernetes has it (type and immutable are accepted and not used). */
    private static final List<String> SECRET_TOP = List.of("apiVersion", "kind", "metadata", "type", "immutable",
            "data", "stringData");

    private ShapeCheck() {}

    /** What is wrong, and where. */
    public record Problem(String field, String problem) {}

    public static Optional<Problem> check(ResourceKind kind, JsonNode document) {
        for (Iterator<String> it = document.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!TOP.contains(name)) {
                return Optional.of(new Problem(name, "unknown field (a resource has " + String.join(", ", TOP) + ")"
                        + hint(name, TOP)));
            }
        }
        JsonNode metadata = document.get("metadata");
        if (metadata != null && !metadata.isNull() && !metadata.isObject()) {
            return Optional.of(new Problem("metadata", "must be a mapping, got " + shown(metadata)));
        }
        JsonNode spec = document.get("spec");
        if (spec == null || spec.isNull()) {
            return Optional.empty(); // the loader says which fields are required
        }
        return check(kind.spec(), spec, "spec");
    }

    /** As the readers use it: the first problem, as an error naming the document. */
    static void enforce(DocumentLocation doc, ResourceKind kind, JsonNode document) {
        check(kind, document).ifPresent(p -> {
            throw doc.error(p.field(), p.problem());
        });
    }

    /**
     * A Secret of a configuration file: Kubernetes' fields and no others, and {@code data}/{@code stringData} mappings
     * of names to scalars. No problem shows a value: they are secrets.
     */
    public static Optional<Problem> secret(JsonNode document) {
        for (Iterator<String> it = document.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!SECRET_TOP.contains(name)) {
                return Optional.of(new Problem(name, "unknown field (a Secret has " + String.join(", ", SECRET_TOP) + ")"
                        + hint(name, SECRET_TOP)));
            }
        }
        for (String field : List.of("data", "stringData")) {
            JsonNode values = document.get(field);
            if (values == null || values.isNull()) {
                continue;
            }
            if (!values.isObject()) {
                return Optional.of(new Problem(field, "must be a mapping of keys to strings"));
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = values.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isContainerNode()) {
                    return Optional.of(new Problem(field + "." + e.getKey(), "must be a string, got " + shown(e.getValue())));
                }
            }
        }
        return none();
    }

    private static Optional<Problem> check(FieldSchema schema, JsonNode v, String path) {
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (schema instanceof Text t) {
            if (!v.isTextual()) {
                // the kind of value only: a Server's adminToken or API key is a string field, and may be the value
                return Optional.of(new Problem(path, "must be a string, got " + kindOf(v)));
            }
            if (t.what() != null && !t.allowed().isEmpty() && !t.allowed().contains(v.asText())) {
                return Optional.of(new Problem(path, "'" + v.asText() + "' is not " + t.what() + " (expected "
                        + alternatives(t.allowed()) + ")"));
            }
            return none();
        }
        if (schema instanceof WholeNumber w) {
            if (!(v.isIntegralNumber() && v.canConvertToLong() || v.isTextual() && v.asText().matches("-?\\d{1,18}"))) {
                return wrong(path, "must be a whole number", v);
            }
            long n = v.isTextual() ? Long.parseLong(v.asText()) : v.asLong();
            if (n < w.minimum()) {
                return Optional.of(new Problem(path, (w.minimum() == 1 ? "must be greater than 0"
                        : "must be at least " + w.minimum()) + ", got " + n));
            }
            return none();
        }
        if (schema instanceof Fraction r) {
            boolean number = v.isNumber() || v.isTextual() && v.asText().strip().matches("\\d+(\\.\\d*)?|\\.\\d+");
            double d = !number ? Double.NaN : v.isNumber() ? v.asDouble() : Double.parseDouble(v.asText().strip());
            return number && d >= r.minimum() && d <= r.maximum() ? none()
                    : wrong(path, "must be a number from " + plain(r.minimum()) + " to " + plain(r.maximum()), v);
        }
        if (schema instanceof Flag) {
            return v.isBoolean() || v.isTextual() && (v.asText().equals("true") || v.asText().equals("false"))
                    ? none() : wrong(path, "must be true or false", v);
        }
        if (schema instanceof Span) {
            return span(path, v);
        }
        if (schema instanceof TextList) {
            if (!v.isArray()) {
                return wrong(path, "must be a list of strings", v);
            }
            for (int i = 0; i < v.size(); i++) {
                if (!v.get(i).isTextual()) {
                    return wrong(path + "[" + i + "]", "must be a string", v.get(i));
                }
            }
            return none();
        }
        if (schema instanceof TextMap) {
            if (!v.isObject()) {
                return wrong(path, "must be a mapping of names to strings", v);
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isTextual()) {
                    return wrong(path + "." + e.getKey(), "must be a string", e.getValue());
                }
            }
            return none();
        }
        if (schema instanceof ObjectList l) {
            if (!v.isArray()) {
                return wrong(path, "must be a list of mappings", v);
            }
            for (int i = 0; i < v.size(); i++) {
                Optional<Problem> p = check(l.items(), v.get(i), path + "[" + i + "]");
                if (p.isPresent()) {
                    return p;
                }
            }
            return none();
        }
        return object((Obj) schema, v, path);
    }

    private static Optional<Problem> object(Obj o, JsonNode v, String path) {
        if (!v.isObject()) {
            return wrong(path, "must be a mapping", v);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            FieldSchema field = o.properties().get(e.getKey());
            String at = path + "." + e.getKey();
            if (field == null) {
                return Optional.of(new Problem(at, "unknown field (expected "
                        + (o.properties().size() == 1 ? "" : "one of ") + String.join(", ", o.properties().keySet()) + ")"
                        + hint(e.getKey(), o.properties().keySet())));
            }
            Optional<Problem> p = check(field, e.getValue(), at);
            if (p.isPresent()) {
                return p;
            }
        }
        return none();
    }

    private static Optional<Problem> span(String path, JsonNode v) {
        if (!v.isTextual() && !(v.isIntegralNumber() && v.canConvertToLong())) {
            return wrong(path, "must be a duration (e.g. 500ms, 90s, 15m, 1h, 1d)", v);
        }
        try {
            // every duration of the configuration is a wait or a bound: none of them means anything at 0
            return Durations.parse(v.asText()).isZero() ? Optional.of(new Problem(path, "must be longer than 0")) : none();
        } catch (IllegalArgumentException e) {
            return Optional.of(new Problem(path, e.getMessage()));
        }
    }

    /**
     * "; did you mean 'x'?" for the known name closest to a misspelled one (a case slip, or a few letters off, swaps
     * counted as one), or nothing when none is close: a hint that names an unrelated field would mislead.
     */
    static String hint(String unknown, java.util.Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = k.equalsIgnoreCase(unknown) ? 0 : distance(unknown.toLowerCase(java.util.Locale.ROOT),
                    k.toLowerCase(java.util.Locale.ROOT));
            if (d <= Math.max(1, Math.min(3, k.length() / 3)) && d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best == null ? "" : "; did you mean '" + best + "'?";
    }

    /** Edits (insert, delete, replace, swap of neighbours) from a to b: the optimal string alignment distance. */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** "a or b", "a, b or c". */
    static String alternatives(List<String> values) {
        int last = values.size() - 1;
        return last == 0 ? values.get(0) : String.join(", ", values.subList(0, last)) + " or " + values.get(last);
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    private static String kindOf(JsonNode v) {
        if (v.isObject()) {
            return "a mapping";
        }
        if (v.isArray()) {
            return "a list";
        }
        return v.isNumber() ? "a number" : v.isBoolean() ? "true or false" : "a " + v.getNodeType().name().toLowerCase();
    }

    private static Optional<Problem> none() {
        return Optional.empty();
    }

    private static Optional<Problem> wrong(String path, String expected, JsonNode got) {
        return Optional.of(new Problem(path, expected + ", got " + shown(got)));
    }

    /** The value's kind for containers, the value itself for scalars (no secret is ever a config value here). */
    private static String shown(JsonNode v) {
        if (v.isObject()) {
            return "a mapping";
        }
        if (v.isArray()) {
            return "a list";
        }
        String text = v.asText();
        String cut = text.length() > 60 ? text.substring(0, 60) + "…" : text;
        return v.isTextual() ? "'" + cut + "'" : cut;
    }
}
