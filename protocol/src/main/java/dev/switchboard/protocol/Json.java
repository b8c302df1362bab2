package dev.switchboard.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.codec.A2aFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The shared Jackson mapper: compact output, unknown fields ignored, trailing garbage refused. */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    /** Thread-safe; do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Parses a JSON document; an empty or invalid body throws {@link A2aFormatException}. */
    public static JsonNode parse(byte[] bytes) {
        try {
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || node.isMissingNode()) {
                throw new A2aFormatException("empty JSON document");
            }
            return node;
        } catch (IOException e) {
            String detail = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new A2aFormatException("invalid JSON: " + detail, e);
        }
    }

    public static JsonNode parse(String json) {
        return parse(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Compact one-line JSON. */
    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JsonNode always serialises", e);
        }
    }
}
