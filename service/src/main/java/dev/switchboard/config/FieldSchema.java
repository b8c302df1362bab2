package dev.switchboard.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One field of a resource's {@code spec}: the single description from which the CRDs in {@code deploy/crds/}
 * ({@link CrdGenerator}) and the tables of {@code docs/configuration.md} ({@link ConfigurationDoc}) are generated, against
 * which the loader checks each document ({@link ShapeCheck}: unknown fields, types, enums, minimums and maximums), and
 * whose defaults the loader reads a field left out as ({@link SpecTree}). Every leaf carries an example: the CRD shows
 * it, and the conformance test loads it.
 */
public sealed interface FieldSchema {

    String description();

    /**
     * A string; {@code allowed} non-empty makes it an enum. {@code what} names a value in the loader's refusal
     * ("'x' is not a dialect (expected a2a or kagent-v1)"); null leaves an enum's check to the kind's reader, for a
     * value it reads more leniently than the CRD would (Server's {@code compat} ignores case).
     */
    record Text(String description, List<String> allowed, String what, String defaultValue, String example)
            implements FieldSchema {
        public Text {
            Objects.requireNonNull(description);
            allowed = List.copyOf(allowed);
            Objects.requireNonNull(example);
        }

        public Text withDefault(String value) {
            return new Text(description, allowed, what, value, example);
        }
    }

    /** A whole number of at least {@code minimum}; a {@code ${VAR}} that expands to digits counts as one. */
    record WholeNumber(String description, long minimum, Long defaultValue, long example) implements FieldSchema {
        public WholeNumber {
            Objects.requireNonNull(description);
        }
    }

    /**
     * A number from {@code minimum} to {@code maximum}, fractions allowed (a ratio); a {@code ${VAR}} that expands to
     * a decimal counts as one.
     */
    record Fraction(String description, double minimum, double maximum, Double defaultValue, double example)
            implements FieldSchema {
        public Fraction {
            Objects.requireNonNull(description);
        }
    }

    /** true or false ({@code "true"} and {@code "false"} count, for {@code ${VAR}}). */
    record Flag(String description, Boolean defaultValue, boolean example) implements FieldSchema {
        public Flag {
            Objects.requireNonNull(description);
        }
    }

    /** A duration as {@link dev.switchboard.config.Durations} reads it: 500ms, 90s, 15m, 1h, 1d, or a number of seconds. */
    record Span(String description, String defaultValue, String example) implements FieldSchema {
        /** As the CRD checks it: the loader's own form, for strings (a bare number is seconds). */
        public static final String PATTERN = "^\\s*\\d+(ms|s|m|h|d)?\\s*$";

        public Span {
            Objects.requireNonNull(description);
            Objects.requireNonNull(example);
        }
    }

    /** A list of non-empty strings; each matching {@code itemPattern} when it is set (the CRD checks it too). */
    record TextList(String description, int minItems, List<String> example, String itemPattern) implements FieldSchema {
        public TextList {
            Objects.requireNonNull(description);
            example = List.copyOf(example);
        }

        public TextList(String description, int minItems, List<String> example) {
            this(description, minItems, example, null);
        }
    }

    /** A mapping of names to strings (e.g. HTTP headers). */
    record TextMap(String description, Map<String, String> example) implements FieldSchema {
        public TextMap {
            Objects.requireNonNull(description);
            example = Map.copyOf(example);
        }
    }

    /** A list of objects. */
    record ObjectList(String description, Obj items) implements FieldSchema {
        public ObjectList {
            Objects.requireNonNull(description);
            Objects.requireNonNull(items);
        }
    }

    /**
     * An object with known fields and no others. {@code exactlyOne}: of these fields, exactly one is set.
     */
    record Obj(String description, Map<String, FieldSchema> properties, List<String> required, List<String> exactlyOne)
            implements FieldSchema {
        public Obj {
            Objects.requireNonNull(description);
            properties = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties));
            required = List.copyOf(required);
            exactlyOne = List.copyOf(exactlyOne);
            for (String r : required) {
                if (!properties.containsKey(r)) {
                    throw new IllegalArgumentException("required field " + r + " is not a property");
                }
            }
        }
    }
}
