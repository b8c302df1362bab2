package dev.switchboard.config;

import dev.switchboard.config.FieldSchema.Obj;
import dev.switchboard.config.FieldSchema.Span;
import dev.switchboard.config.FieldSchema.Text;
import dev.switchboard.config.FieldSchema.WholeNumber;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The small pieces {@link ResourceSchemas} writes every field with, so that each field there reads as one line. */
final class SchemaBlocks {

    private SchemaBlocks() {}

    static Obj secretRef(String description) {
        return obj(description, fields(
                "name", text("The Secret's name, in the resource's namespace.", "agent-token"),
                "key", text("The key in the Secret's data.", "token")), List.of("name", "key"));
    }

    static Obj secretWrapper(String description) {
        return obj(description, fields("secretRef", secretRef("The Secret key holding it.")), List.of("secretRef"));
    }

    static Text text(String description, String example) {
        return new Text(description, List.of(), null, null, example);
    }

    static Text oneOf(String description, List<String> allowed, String what) {
        return new Text(description, allowed, what, null, allowed.get(0));
    }

    static WholeNumber number(String description, long defaultValue) {
        return new WholeNumber(description, 1, defaultValue, defaultValue);
    }

    static Span span(String description, java.time.Duration defaultValue, String example) {
        return new Span(description, Durations.format(defaultValue), example);
    }

    static Obj obj(String description, Map<String, FieldSchema> properties, List<String> required) {
        return new Obj(description, properties, required, List.of());
    }

    static Map<String, FieldSchema> fields(Object... nameThenSchema) {
        Map<String, FieldSchema> out = new LinkedHashMap<>();
        for (int i = 0; i < nameThenSchema.length; i += 2) {
            out.put((String) nameThenSchema[i], (FieldSchema) nameThenSchema[i + 1]);
        }
        return out;
    }
}
