package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;

/**
 * Validates a custom resource against the openAPIV3Schema of a CRD with an independent JSON Schema validator, as
 * {@code kubectl apply} does with strict field validation (its default): an unknown field is refused, so every object
 * with listed properties is closed here ({@code additionalProperties: false}), which the API server does by pruning.
 */
public final class CrdSchemaValidator {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);

    private final Schema schema;

    private CrdSchemaValidator(JsonNode openApiV3Schema) {
        JsonNode strict = openApiV3Schema.deepCopy();
        close(strict);
        this.schema = REGISTRY.getSchema(strict.toString(), InputFormat.JSON);
    }

    /** From a CRD document (as read from YAML, or {@link CrdGenerator#crd}). */
    public static CrdSchemaValidator of(JsonNode crd) {
        JsonNode versions = crd.path("spec").path("versions");
        if (versions.size() != 1) {
            throw new IllegalArgumentException("expected one version in " + crd.path("metadata").path("name"));
        }
        return new CrdSchemaValidator(versions.get(0).path("schema").path("openAPIV3Schema"));
    }

    public static CrdSchemaValidator of(ResourceKind kind) {
        return of(JSON.valueToTree(CrdGenerator.crd(kind)));
    }

    /** The validator's complaints, empty when the resource is valid. */
    public List<String> errors(JsonNode resource) {
        try {
            return schema.validate(JSON.writeValueAsString(resource), InputFormat.JSON).stream()
                    .map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void close(JsonNode node) {
        if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            if (o.has("properties") && !o.has("additionalProperties")) {
                o.put("additionalProperties", false);
            }
            o.elements().forEachRemaining(CrdSchemaValidator::close);
        } else if (node.isArray()) {
            node.elements().forEachRemaining(CrdSchemaValidator::close);
        }
    }
}
