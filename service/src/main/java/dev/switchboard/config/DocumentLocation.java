package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Where a document being read is, for its error messages: the file and the document's number in it, its kind and name
 * once known. A resource read on its own (the Kubernetes watch) has no file: its kind and name are the caller's to say.
 */
final class DocumentLocation {

    private final String source;
    private final int number;
    private String kind;
    private String name;

    DocumentLocation(String source, int number) {
        this.source = source;
        this.number = number;
    }

    void kind(String kind) {
        this.kind = kind;
    }

    void name(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    ConfigException error(String field, String problem) {
        if (source == null) {
            return new ConfigException(field.isEmpty() ? problem : field + ": " + problem);
        }
        String what = "document " + number + (kind == null ? "" : " (" + kind + (name == null ? "" : " " + name) + ")");
        return new ConfigException(source + ": " + what + (field.isEmpty() ? "" : ": " + field) + ": " + problem);
    }

    /** metadata.name, which from then on every error names. */
    String requiredName(JsonNode document) {
        String n = requiredText(document.path("metadata"), "name", "metadata.name");
        name = n;
        return n;
    }

    JsonNode requiredObject(JsonNode node, String field) {
        JsonNode v = node.path(field);
        if (!v.isObject()) {
            throw error(field, "is required and must be a mapping");
        }
        return v;
    }

    /** Outside a spec (kind, metadata.name): the spec's own fields are read through {@link SpecTree}. */
    String requiredText(JsonNode node, String field, String shownAs) {
        JsonNode v = node == null ? null : node.get(field);
        if (v == null || v.isNull() || v.isMissingNode()) {
            throw error(shownAs, "is required");
        }
        if (!v.isValueNode() || v.asText().isBlank()) {
            throw error(shownAs, "must be a non-empty string");
        }
        return v.asText();
    }
}
