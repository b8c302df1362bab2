package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Base64;

/**
 * One piece of content. 1.0 has a flat oneof {@code text | raw | url | data}; 0.3 has {@code kind}
 * text, file (bytes or uri) and data. Every part may carry a media type, a file name and metadata.
 */
public sealed interface Part permits Part.Text, Part.Raw, Part.Url, Part.Data {

    String mediaType();

    String filename();

    ObjectNode metadata();

    static Text text(String text) {
        return new Text(text, null, null, null);
    }

    record Text(String text, String mediaType, String filename, ObjectNode metadata) implements Part {}

    /** Inline bytes: 1.0 {@code raw} (base64), 0.3 {@code file.bytes}. */
    record Raw(byte[] bytes, String mediaType, String filename, ObjectNode metadata) implements Part {
        @Override
        public boolean equals(Object o) {
            return o instanceof Raw r
                    && Arrays.equals(bytes, r.bytes)
                    && java.util.Objects.equals(mediaType, r.mediaType)
                    && java.util.Objects.equals(filename, r.filename)
                    && java.util.Objects.equals(metadata, r.metadata);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(Arrays.hashCode(bytes), mediaType, filename, metadata);
        }

        @Override
        public String toString() {
            return "Raw[" + Base64.getEncoder().encodeToString(bytes) + ", " + mediaType + ", " + filename + "]";
        }
    }

    /** A file by reference: 1.0 {@code url}, 0.3 {@code file.uri}. */
    record Url(String url, String mediaType, String filename, ObjectNode metadata) implements Part {}

    /**
     * Structured data. In 1.0 any JSON value; 0.3 allows only objects, so the 0.3 writer wraps the
     * rest as {@code {"value": x}} (and a 0.3 reader cannot tell that wrapper from real data).
     */
    record Data(JsonNode data, String mediaType, String filename, ObjectNode metadata) implements Part {}
}
