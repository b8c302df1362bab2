package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import java.util.Map;

/**
 * Card security declarations between the two shapes, so a card read in one version can be written in
 * the other. 0.3 schemes are OpenAPI objects with {@code type}; 1.0 schemes are a oneof wrapper
 * ({@code {"apiKeySecurityScheme":{…}}}). 0.3 {@code security: [{"name":["scope"]}]} is 1.0
 * {@code securityRequirements: [{"schemes":{"name":{"list":["scope"]}}}]}. A value already in the
 * target shape, or one neither shape knows, passes unchanged.
 */
final class SecuritySchemes {

    private static final Map<String, String> WRAPPER_BY_TYPE = Map.of(
            "apiKey", "apiKeySecurityScheme",
            "http", "httpAuthSecurityScheme",
            "oauth2", "oauth2SecurityScheme",
            "openIdConnect", "openIdConnectSecurityScheme",
            "mutualTLS", "mtlsSecurityScheme");

    private SecuritySchemes() {}

    /** The securitySchemes map with each scheme in the target shape. */
    static ObjectNode schemes(JsonNode schemes, boolean to10) {
        ObjectNode out = Json.object();
        for (Map.Entry<String, JsonNode> e : schemes.properties()) {
            out.set(e.getKey(), to10 ? schemeTo10(e.getValue()) : schemeTo03(e.getValue()));
        }
        return out;
    }

    private static JsonNode schemeTo10(JsonNode scheme) {
        String wrapper = WRAPPER_BY_TYPE.get(scheme.path("type").asText());
        if (wrapper == null) {
            return scheme;
        }
        ObjectNode body = ((ObjectNode) scheme).deepCopy();
        body.remove("type");
        if (body.has("in")) {
            body.set("location", body.remove("in"));
        }
        ObjectNode out = Json.object();
        out.set(wrapper, body);
        return out;
    }

    /**
     * Also takes the shape a2a-js 1.3.0 actually serves,
     * {@code {"scheme":{"$case":"apiKeySecurityScheme","value":{…}}}} (its oneof leaks into the JSON).
     */
    private static JsonNode schemeTo03(JsonNode scheme) {
        if (!scheme.isObject() || scheme.size() != 1) {
            return scheme;
        }
        Map.Entry<String, JsonNode> only = scheme.properties().iterator().next();
        String wrapper = only.getKey();
        JsonNode body = only.getValue();
        if (wrapper.equals("scheme") && body.has("$case")) {
            wrapper = body.path("$case").asText();
            body = body.path("value");
        }
        for (Map.Entry<String, String> t : WRAPPER_BY_TYPE.entrySet()) {
            if (t.getValue().equals(wrapper) && body.isObject()) {
                ObjectNode out = Json.object();
                out.put("type", t.getKey());
                body.properties().forEach(f -> out.set(f.getKey().equals("location") ? "in" : f.getKey(), f.getValue()));
                return out;
            }
        }
        return scheme;
    }

    /** 0.3 {@code security} → 1.0 {@code securityRequirements}. */
    static ArrayNode requirementsTo10(JsonNode security) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (JsonNode requirement : security) {
            ObjectNode schemes = Json.object();
            requirement.properties().forEach(e -> schemes.putObject(e.getKey()).set("list", e.getValue()));
            out.addObject().set("schemes", schemes);
        }
        return out;
    }

    /** 1.0 {@code securityRequirements} → 0.3 {@code security}. */
    static ArrayNode requirementsTo03(JsonNode requirements) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (JsonNode requirement : requirements) {
            ObjectNode entry = out.addObject();
            requirement.path("schemes").properties().forEach(e -> {
                JsonNode list = e.getValue().path("list");
                entry.set(e.getKey(), list.isArray() ? list : Json.mapper().createArrayNode());
            });
        }
        return out;
    }
}
