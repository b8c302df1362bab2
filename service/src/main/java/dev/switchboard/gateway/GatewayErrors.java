package dev.switchboard.gateway;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * Writes the JSON-RPC error bodies the gateway generates itself. Every one carries
 * {@code error.data.executed} (did the agent process the call) and {@code retryable}, so a caller
 * can tell a transport error from the agent's own (application) error, which is relayed untouched.
 */
final class GatewayErrors {

    private static final JsonFactory JSON = new JsonFactory();

    private GatewayErrors() {}

    static String body(GatewayException e) {
        StringWriter out = new StringWriter(160);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("jsonrpc", "2.0");
            g.writeFieldName("id");
            writeId(g, e.id());
            g.writeObjectFieldStart("error");
            g.writeNumberField("code", e.code());
            g.writeStringField("message", e.getMessage());
            g.writeObjectFieldStart("data");
            g.writeBooleanField("executed", e.kind() == GatewayException.Kind.AGENT_HTTP_ERROR);
            g.writeBooleanField("retryable", e.kind() == GatewayException.Kind.TRANSPORT_RETRYABLE);
            g.writeStringField("source", "gateway");
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return out.toString();
    }

    private static void writeId(JsonGenerator g, JsonNode id) throws IOException {
        if (id == null || id.isNull()) {
            g.writeNull();
        } else if (id.isTextual()) {
            g.writeString(id.textValue());
        } else {
            g.writeNumber(id.bigIntegerValue());
        }
    }
}
