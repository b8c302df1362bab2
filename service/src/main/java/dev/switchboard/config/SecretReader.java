package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** A Secret document, as Kubernetes has it: {@code stringData} as written, {@code data} in base64. */
final class SecretReader {

    private SecretReader() {}

    static ConfigDocument.Secret read(DocumentLocation doc, JsonNode node) {
        String name = doc.requiredName(node);
        ShapeCheck.secret(node).ifPresent(p -> {
            throw doc.error(p.field(), p.problem());
        });
        Map<String, String> values = new LinkedHashMap<>();
        JsonNode data = node.path("stringData");
        if (data.isObject()) {
            data.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
        }
        JsonNode b64 = node.path("data");
        if (b64.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = b64.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                try {
                    values.put(e.getKey(), new String(Base64.getDecoder().decode(e.getValue().asText().trim()),
                            StandardCharsets.UTF_8));
                } catch (IllegalArgumentException ex) {
                    throw doc.error("data." + e.getKey(), "is not valid base64");
                }
            }
        }
        if (values.isEmpty()) {
            throw doc.error("stringData", "a Secret needs stringData or data with at least one key");
        }
        return new ConfigDocument.Secret(name, Map.copyOf(values));
    }
}
