package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.switchboard.config.FieldSchema.Flag;
import dev.switchboard.config.FieldSchema.Fraction;
import dev.switchboard.config.FieldSchema.Obj;
import dev.switchboard.config.FieldSchema.ObjectList;
import dev.switchboard.config.FieldSchema.Span;
import dev.switchboard.config.FieldSchema.Text;
import dev.switchboard.config.FieldSchema.TextList;
import dev.switchboard.config.FieldSchema.TextMap;
import dev.switchboard.config.FieldSchema.WholeNumber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A mapping of a spec that {@link ShapeCheck} has passed, read field by field through its {@link Obj}: a field left
 * out reads as the schema's default, so each default is written once, in {@link ResourceSchemas}; a required field
 * left out is refused here ("is required"). Types, enums and minimums were checked already (a {@code ${VAR}} string
 * of digits counts as a number), so the getters only convert. Asking for a field the schema does not list, or as the
 * wrong type, is a programming error.
 */
final class SpecTree {

    private final DocumentLocation doc;
    private final Obj schema;
    private final JsonNode node;
    private final String path;

    private SpecTree(DocumentLocation doc, Obj schema, JsonNode node, String path) {
        this.doc = doc;
        this.schema = schema;
        this.node = node == null || node.isNull() ? MissingNode.getInstance() : node;
        this.path = path;
    }

    /** The {@code spec} of a document of {@code kind}. */
    static SpecTree spec(DocumentLocation doc, ResourceKind kind, JsonNode spec) {
        return new SpecTree(doc, kind.spec(), spec, "spec");
    }

    /** This mapping's path in the document, e.g. {@code spec.limits}. */
    String path() {
        return path;
    }

    String path(String name) {
        return path + "." + name;
    }

    ConfigException error(String name, String problem) {
        return doc.error(path(name), problem);
    }

    ConfigException error(String problem) {
        return doc.error(path, problem);
    }

    /** Whether the field is set (null counts as left out, as YAML's {@code ~}). */
    boolean has(String name) {
        field(name, FieldSchema.class);
        JsonNode v = node.get(name);
        return v != null && !v.isNull();
    }

    String text(String name) {
        Text t = field(name, Text.class);
        JsonNode v = value(name);
        if (v == null) {
            return t.defaultValue();
        }
        if (schema.required().contains(name) && v.asText().isBlank()) {
            throw error(name, "must be a non-empty string");
        }
        return v.asText();
    }

    long whole(String name) {
        WholeNumber w = field(name, WholeNumber.class);
        if (w.defaultValue() == null) {
            throw new IllegalStateException(path(name) + " has no default in the schema: give the reader's");
        }
        return whole(name, w.defaultValue());
    }

    /** For a field whose default follows other fields, so the schema cannot hold it. */
    long whole(String name, long fallback) {
        field(name, WholeNumber.class);
        JsonNode v = value(name);
        return v == null ? fallback : v.isTextual() ? Long.parseLong(v.asText()) : v.asLong();
    }

    /** A whole number as an int: a larger one means "no bound" and is read as the largest int. */
    int wholeInt(String name) {
        return (int) Math.min(Integer.MAX_VALUE, whole(name));
    }

    double fraction(String name) {
        Fraction f = field(name, Fraction.class);
        JsonNode v = value(name);
        return v == null ? f.defaultValue() : v.isNumber() ? v.asDouble() : Double.parseDouble(v.asText().strip());
    }

    boolean flag(String name) {
        Flag f = field(name, Flag.class);
        JsonNode v = value(name);
        return v == null ? f.defaultValue() : v.isBoolean() ? v.booleanValue() : Boolean.parseBoolean(v.asText());
    }

    Duration span(String name) {
        Span s = field(name, Span.class);
        JsonNode v = value(name);
        return Durations.parse(v == null ? s.defaultValue() : v.asText());
    }

    /** The strings as written; empty when left out. */
    List<String> texts(String name) {
        field(name, TextList.class);
        JsonNode v = value(name);
        List<String> out = new ArrayList<>();
        if (v != null) {
            v.forEach(e -> out.add(e.asText()));
        }
        return List.copyOf(out);
    }

    /** The strings trimmed, a blank one refused: for lists of names and addresses. */
    List<String> trimmedTexts(String name) {
        List<String> raw = texts(name);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            if (raw.get(i).isBlank()) {
                throw doc.error(path(name) + "[" + i + "]", "must be a non-empty string");
            }
            out.add(raw.get(i).trim());
        }
        return List.copyOf(out);
    }

    /** Names to strings in the order written; empty when left out. */
    Map<String, String> textMap(String name) {
        field(name, TextMap.class);
        JsonNode v = value(name);
        Map<String, String> out = new LinkedHashMap<>();
        if (v != null) {
            v.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    /** A nested mapping; one left out reads as empty, so its fields read as their defaults. */
    SpecTree object(String name) {
        Obj o = field(name, Obj.class);
        return new SpecTree(doc, o, value(name), path(name));
    }

    /** The items of a list of mappings, each at {@code path[i]}. */
    List<SpecTree> items(String name) {
        ObjectList l = field(name, ObjectList.class);
        JsonNode v = value(name);
        List<SpecTree> out = new ArrayList<>();
        if (v != null) {
            for (int i = 0; i < v.size(); i++) {
                out.add(new SpecTree(doc, l.items(), v.get(i), path(name) + "[" + i + "]"));
            }
        }
        return out;
    }

    /** A Secret key ({@code {name, key}}), or null when left out. */
    SecretRef secretRef(String name) {
        if (!has(name)) {
            object(name); // refuses it when required
            return null;
        }
        SpecTree ref = object(name);
        return new SecretRef(ref.text("name"), ref.text("key"));
    }

    /** The field's value, or null when left out; a required field left out is refused. */
    private JsonNode value(String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            if (schema.required().contains(name)) {
                throw error(name, "is required");
            }
            return null;
        }
        return v;
    }

    private <F extends FieldSchema> F field(String name, Class<F> type) {
        FieldSchema f = schema.properties().get(name);
        if (!type.isInstance(f)) {
            throw new IllegalArgumentException(path(name) + " is not a " + type.getSimpleName() + " of the schema");
        }
        return type.cast(f);
    }
}
