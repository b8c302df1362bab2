package dev.switchboard.gateway;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import java.io.IOException;

/**
 * The few members of a JSON-RPC request the gateway routes on, read with Jackson's streaming
 * parser so the body is validated without building a tree; the body itself is forwarded as it came.
 *
 * @param id the request id as a JSON value (string, number or null node); Java null when absent (a notification)
 * @param method the method name, never empty
 * @param timeoutSeconds {@code params.configuration.timeout} when it is a positive number, else null
 */
public record RoutingFields(JsonNode id, String method, Double timeoutSeconds) {

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(200).build())
            .build();

    public boolean isNotification() {
        return id == null;
    }

    /** Parses and validates; throws {@link GatewayException} with -32700 or -32600 naming the problem. */
    public static RoutingFields parse(byte[] body) {
        try (JsonParser p = JSON.createParser(body)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw invalidJson("empty body");
            }
            if (first == JsonToken.START_ARRAY) {
                skipRest(p);
                throw invalid(null, "batch requests are not supported: send one JSON-RPC object per request");
            }
            if (first != JsonToken.START_OBJECT) {
                skipRest(p);
                throw invalid(null, "request must be a JSON object");
            }
            String jsonrpc = null;
            boolean jsonrpcSeen = false;
            JsonNode id = null;
            String idProblem = null;
            String method = null;
            boolean methodSeen = false;
            Double timeout = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "jsonrpc" -> {
                        jsonrpcSeen = true;
                        jsonrpc = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        p.skipChildren();
                    }
                    case "id" -> {
                        switch (value) {
                            case VALUE_STRING -> id = JsonNodeFactory.instance.textNode(p.getText());
                            case VALUE_NUMBER_INT -> id = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                                    ? JsonNodeFactory.instance.numberNode(p.getBigIntegerValue())
                                    : JsonNodeFactory.instance.numberNode(p.getLongValue());
                            case VALUE_NULL -> id = NullNode.getInstance();
                            default -> {
                                idProblem = "id must be a string, an integer or null";
                                p.skipChildren();
                            }
                        }
                    }
                    case "method" -> {
                        methodSeen = true;
                        method = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        p.skipChildren();
                    }
                    case "params" -> timeout = value == JsonToken.START_OBJECT ? readTimeout(p) : skip(p);
                    default -> p.skipChildren();
                }
            }
            if (p.nextToken() != null) {
                throw invalidJson("unexpected content after the JSON object");
            }
            if (idProblem != null) {
                throw invalid(null, idProblem);
            }
            if (!jsonrpcSeen) {
                throw invalid(id, "missing jsonrpc field: it must be \"2.0\"");
            }
            if (!"2.0".equals(jsonrpc)) {
                throw invalid(id, "jsonrpc must be \"2.0\"");
            }
            if (!methodSeen) {
                throw invalid(id, "missing method field");
            }
            if (method == null) {
                throw invalid(id, "method must be a string");
            }
            if (method.isBlank()) {
                throw invalid(id, "method must not be empty");
            }
            return new RoutingFields(id, method, timeout);
        } catch (JsonParseException e) {
            // where, not what the parser said: its messages quote input and name its internals
            throw e.getLocation() == null ? invalidJson("malformed")
                    : new GatewayException(null, JsonRpcError.PARSE_ERROR, "parse error: invalid JSON at line "
                            + e.getLocation().getLineNr() + " column " + e.getLocation().getColumnNr(),
                            GatewayException.Kind.REQUEST);
        } catch (IOException e) {
            throw invalidJson("unreadable");
        }
    }

    /** Inside params: finds configuration.timeout, skipping everything else. */
    private static Double readTimeout(JsonParser p) throws IOException {
        Double timeout = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("configuration") && value == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String inner = p.currentName();
                    JsonToken v = p.nextToken();
                    if (inner.equals("timeout") && v.isNumeric()) {
                        double seconds = p.getDoubleValue();
                        timeout = seconds > 0 && Double.isFinite(seconds) ? seconds : null;
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        return timeout;
    }

    private static Double skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    /** Reads to the end so that invalid JSON is reported as such even when the shape is also wrong. */
    private static void skipRest(JsonParser p) throws IOException {
        p.skipChildren();
        if (p.nextToken() != null) {
            throw invalidJson("unexpected content after the JSON value");
        }
    }

    private static GatewayException invalidJson(String detail) {
        return new GatewayException(null, JsonRpcError.PARSE_ERROR, "parse error: invalid JSON (" + detail + ")",
                GatewayException.Kind.REQUEST);
    }

    private static GatewayException invalid(JsonNode id, String detail) {
        return new GatewayException(id, JsonRpcError.INVALID_REQUEST, "invalid request: " + detail,
                GatewayException.Kind.REQUEST);
    }
}
