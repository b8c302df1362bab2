package dev.switchboard.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.switchboard.config.FieldSchema.Flag;
import dev.switchboard.config.FieldSchema.Fraction;
import dev.switchboard.config.FieldSchema.Obj;
import dev.switchboard.config.FieldSchema.ObjectList;
import dev.switchboard.config.FieldSchema.Span;
import dev.switchboard.config.FieldSchema.Text;
import dev.switchboard.config.FieldSchema.TextList;
import dev.switchboard.config.FieldSchema.TextMap;
import dev.switchboard.config.FieldSchema.WholeNumber;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns {@link ResourceSchemas} into {@code apiextensions.k8s.io/v1} CustomResourceDefinitions: one YAML file per kind,
 * the same bytes every time, so that CrdFilesTest can hold {@code deploy/crds/} to them.
 */
public final class CrdGenerator {

    /** The one command that rewrites {@code deploy/crds/} from the description (CrdFilesTest does the writing). */
    public static final String REGENERATE = "./mvnw -q -B -pl service -am test -Dtest=CrdFilesTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dcrds.write=true";

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build());

    private CrdGenerator() {}

    /** File name to content, for every kind. */
    public static Map<String, String> files() {
        Map<String, String> out = new TreeMap<>();
        for (ResourceKind k : ResourceSchemas.ALL) {
            out.put(k.crdName() + ".yaml", yaml(k));
        }
        return out;
    }

    public static String yaml(ResourceKind kind) {
        try {
            return "# Generated from dev.switchboard.config.ResourceSchemas: do not edit. Regenerate with\n# "
                    + REGENERATE + "\n" + YAML.writeValueAsString(crd(kind));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes every CRD into {@code dir}. */
    public static void write(Path dir) {
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, String> f : files().entrySet()) {
                Files.writeString(dir.resolve(f.getKey()), f.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The CRD as a tree of maps and lists. */
    public static Map<String, Object> crd(ResourceKind kind) {
        Map<String, Object> names = map(
                "kind", kind.kind(),
                "listKind", kind.kind() + "List",
                "plural", kind.plural(),
                "singular", kind.singular());
        if (!kind.shortNames().isEmpty()) {
            names.put("shortNames", kind.shortNames());
        }
        names.put("categories", List.of("switchboard"));

        List<Object> columns = new ArrayList<>();
        for (ResourceKind.Column c : kind.columns()) {
            Map<String, Object> col = map("name", c.name(), "type", c.type(), "jsonPath", c.jsonPath());
            if (!c.description().isEmpty()) {
                col.put("description", c.description());
            }
            columns.add(col);
        }

        Map<String, Object> root = map(
                "type", "object",
                "description", kind.description(),
                "required", List.of("spec"),
                "properties", map(
                        "apiVersion", map("type", "string"),
                        "kind", map("type", "string"),
                        "metadata", map("type", "object"),
                        "spec", schema(kind.spec()),
                        "status", status()));

        Map<String, Object> version = map(
                "name", ResourceKind.VERSION,
                "served", true,
                "storage", true,
                "subresources", map("status", map()),
                "additionalPrinterColumns", columns,
                "schema", map("openAPIV3Schema", root));

        return map(
                "apiVersion", "apiextensions.k8s.io/v1",
                "kind", "CustomResourceDefinition",
                "metadata", map("name", kind.crdName(), "labels", map("app.kubernetes.io/name", "switchboard")),
                "spec", map(
                        "group", ResourceKind.GROUP,
                        "names", names,
                        "scope", "Namespaced",
                        "versions", List.of(version)));
    }

    /** The OpenAPI v3 schema of one field. */
    public static Map<String, Object> schema(FieldSchema f) {
        Map<String, Object> s = new LinkedHashMap<>();
        if (f instanceof Text t) {
            s.put("type", "string");
            s.put("description", f.description());
            if (!t.allowed().isEmpty()) {
                s.put("enum", t.allowed());
            }
            putIfSet(s, "default", t.defaultValue());
            s.put("example", t.example());
        } else if (f instanceof WholeNumber n) {
            s.put("type", "integer");
            s.put("format", "int64");
            s.put("description", f.description());
            s.put("minimum", n.minimum());
            putIfSet(s, "default", n.defaultValue());
            s.put("example", n.example());
        } else if (f instanceof Fraction r) {
            s.put("type", "number");
            s.put("description", f.description());
            s.put("minimum", r.minimum());
            s.put("maximum", r.maximum());
            putIfSet(s, "default", r.defaultValue());
            s.put("example", r.example());
        } else if (f instanceof Flag b) {
            s.put("type", "boolean");
            s.put("description", f.description());
            putIfSet(s, "default", b.defaultValue());
            s.put("example", b.example());
        } else if (f instanceof Span d) {
            // a bare number is seconds, as the loader reads it
            s.put("x-kubernetes-int-or-string", true);
            s.put("anyOf", List.of(map("type", "integer"), map("type", "string")));
            s.put("description", f.description() + " A duration: 500ms, 90s, 15m, 1h, 1d, or a number of seconds.");
            s.put("pattern", Span.PATTERN);
            putIfSet(s, "default", d.defaultValue());
            s.put("example", d.example());
        } else if (f instanceof TextList l) {
            s.put("type", "array");
            s.put("description", f.description());
            if (l.minItems() > 0) {
                s.put("minItems", l.minItems());
            }
            Map<String, Object> items = map("type", "string");
            if (l.itemPattern() != null) {
                items.put("pattern", l.itemPattern());
            }
            s.put("items", items);
            s.put("example", l.example());
        } else if (f instanceof TextMap m) {
            s.put("type", "object");
            s.put("description", f.description());
            s.put("additionalProperties", map("type", "string"));
            s.put("example", new TreeMap<>(m.example()));
        } else if (f instanceof ObjectList l) {
            s.put("type", "array");
            s.put("description", f.description());
            s.put("items", schema(l.items()));
        } else {
            Obj o = (Obj) f;
            s.put("type", "object");
            s.put("description", f.description());
            if (!o.required().isEmpty()) {
                s.put("required", o.required());
            }
            if (!o.exactlyOne().isEmpty()) {
                List<Object> one = new ArrayList<>();
                for (String name : o.exactlyOne()) {
                    one.add(map("required", List.of(name)));
                }
                s.put("oneOf", one);
            }
            Map<String, Object> props = new LinkedHashMap<>();
            o.properties().forEach((name, field) -> {
                Map<String, Object> p = schema(field);
                if (o.required().contains(name) && field instanceof Text t && t.allowed().isEmpty()) {
                    p.put("minLength", 1); // the loader refuses a blank required string
                }
                props.put(name, p);
            });
            s.put("properties", props);
        }
        return s;
    }

    /** What watch mode writes: conditions as metav1.Condition has them, one per type. */
    private static Map<String, Object> status() {
        Map<String, Object> condition = map(
                "type", "object",
                "required", List.of("type", "status"),
                "properties", map(
                        "type", map("type", "string", "description", "The condition's type; Switchboard writes Ready."),
                        "status", map("type", "string", "enum", List.of("True", "False", "Unknown")),
                        "reason", map("type", "string", "description", "A CamelCase reason, Applied, InvalidSpec, BackendNotFound, BindingNotFound, SlackAppNotFound, SecretNotFound, SecretNotUsable, InvalidReference or RestartRequired."),
                        "message", map("type", "string", "description", "What a person can act on, e.g. the config error."),
                        "lastTransitionTime", map("type", "string", "format", "date-time"),
                        "observedGeneration", map("type", "integer", "format", "int64", "minimum", 0)));
        return map(
                "type", "object",
                "description", "Written by Switchboard in watch mode (serve --kubernetes).",
                "properties", map(
                        "observedGeneration", map("type", "integer", "format", "int64", "minimum", 0,
                                "description", "The metadata.generation the status describes."),
                        "conditions", map(
                                "type", "array",
                                "description", "Ready: whether the resource is applied, with the reason if not.",
                                "x-kubernetes-list-type", "map",
                                "x-kubernetes-list-map-keys", List.of("type"),
                                "items", condition)));
    }

    private static void putIfSet(Map<String, Object> s, String key, Object value) {
        if (value != null) {
            s.put(key, value);
        }
    }

    private static Map<String, Object> map(Object... keyThenValue) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keyThenValue.length; i += 2) {
            m.put((String) keyThenValue[i], keyThenValue[i + 1]);
        }
        return m;
    }

    /** Writes the CRDs into the folder given (default {@code deploy/crds}). */
    public static void main(String[] args) {
        write(Path.of(args.length > 0 ? args[0] : "deploy/crds"));
    }
}
