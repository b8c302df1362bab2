package dev.switchboard.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.codec.A2aFormatException;

/** Reads and writes JSON-RPC 2.0 envelopes (single requests; A2A uses no batches). */
public final class JsonRpcCodec {

    private JsonRpcCodec() {}

    /**
     * Parses and validates a request body; throws {@link JsonRpcException} carrying -32700 (not JSON)
     * or -32600 (not a JSON-RPC request). The exception's id is the request's id when it was valid,
     * else JSON null, ready to be echoed. An absent id reads as a null reference (a notification),
     * a JSON null id as {@link NullNode}.
     */
    public static JsonRpcRequest readRequest(byte[] body) {
        JsonNode json;
        try {
            json = Json.parse(body);
        } catch (A2aFormatException e) {
            throw new JsonRpcException(NullNode.getInstance(), JsonRpcError.PARSE_ERROR, "Parse error: " + e.getMessage());
        }
        if (json.isArray()) {
            throw invalid(NullNode.getInstance(), "batch requests are not supported");
        }
        if (!json.isObject()) {
            throw invalid(NullNode.getInstance(), "request must be a JSON object, got " + type(json));
        }
        JsonNode id = json.get("id");
        if (id != null && !(id.isTextual() || id.isIntegralNumber() || id.isNull())) {
            throw invalid(NullNode.getInstance(), "id must be a string, an integer or null, got " + type(id));
        }
        JsonNode echo = id == null ? NullNode.getInstance() : id;
        JsonNode version = json.get("jsonrpc");
        if (version == null || !version.isTextual() || !version.textValue().equals("2.0")) {
            throw invalid(echo, "jsonrpc must be \"2.0\", got " + (version == null ? "nothing" : version.toString()));
        }
        JsonNode method = json.get("method");
        if (method == null || !method.isTextual()) {
            throw invalid(echo, "method must be a string, got " + (method == null ? "nothing" : type(method)));
        }
        if (method.textValue().isEmpty()) {
            throw invalid(echo, "method must not be empty");
        }
        JsonNode params = json.get("params");
        if (params != null && !(params.isObject() || params.isArray() || params.isNull())) {
            throw invalid(echo, "params must be an object, got " + type(params));
        }
        return new JsonRpcRequest(id, method.textValue(), params == null || params.isNull() ? null : params);
    }

    /**
     * A response from a peer. Lenient about {@code jsonrpc}; needs {@code result} or {@code error}
     * ({@code "result": null} is a valid result, e.g. of DeleteTaskPushNotificationConfig).
     */
    public static JsonRpcResponse readResponse(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new A2aFormatException("response: expected a JSON-RPC object, got " + (json == null ? "nothing" : type(json)));
        }
        JsonNode id = json.has("id") ? json.get("id") : NullNode.getInstance();
        JsonNode error = json.get("error");
        if (error != null && !error.isNull()) {
            return new JsonRpcResponse(id, null, readError(error));
        }
        if (!json.has("result")) {
            throw new A2aFormatException("response: has neither result nor error");
        }
        return new JsonRpcResponse(id, json.get("result"), null);
    }

    /** An error object of either version: {@code data} is kept as sent (null when absent). */
    public static JsonRpcError readError(JsonNode error) {
        if (error == null || !error.isObject()) {
            throw new A2aFormatException("error: expected an object, got " + (error == null ? "nothing" : type(error)));
        }
        JsonNode code = error.get("code");
        if (code == null || !code.isIntegralNumber() || !code.canConvertToInt()) {
            throw new A2aFormatException("error.code: expected an integer, got " + (code == null ? "nothing" : code.toString()));
        }
        JsonNode message = error.get("message");
        if (message != null && !message.isNull() && !message.isTextual()) {
            throw new A2aFormatException("error.message: expected a string, got " + type(message));
        }
        JsonNode data = error.get("data");
        return new JsonRpcError(
                code.intValue(),
                message == null || message.isNull() ? "" : message.textValue(),
                data == null || data.isNull() ? null : data);
    }

    /** {"jsonrpc":"2.0","id":…,"result":…}, the id echoed with its JSON type. */
    public static String result(JsonNode id, JsonNode result) {
        ObjectNode o = envelope(id);
        o.set("result", result);
        return Json.write(o);
    }

    /** {"jsonrpc":"2.0","id":…,"error":…}; errorObject is what WireCodec.writeError produced. */
    public static String error(JsonNode id, JsonNode errorObject) {
        ObjectNode o = envelope(id);
        o.set("error", errorObject);
        return Json.write(o);
    }

    /** A null id makes a notification (no id member); null params are left out. */
    public static String request(JsonNode id, String method, JsonNode params) {
        ObjectNode o = Json.object();
        o.put("jsonrpc", "2.0");
        if (id != null) {
            o.set("id", id);
        }
        o.put("method", method);
        if (params != null) {
            o.set("params", params);
        }
        return Json.write(o);
    }

    /** Responses always carry id; a missing one is written as JSON null. */
    private static ObjectNode envelope(JsonNode id) {
        ObjectNode o = Json.object();
        o.put("jsonrpc", "2.0");
        o.set("id", id == null ? NullNode.getInstance() : id);
        return o;
    }

    private static JsonRpcException invalid(JsonNode id, String message) {
        return new JsonRpcException(id, JsonRpcError.INVALID_REQUEST, "Invalid request: " + message);
    }

    private static String type(JsonNode node) {
        if (node.isNumber() && !node.isIntegralNumber()) {
            return "a fractional number";
        }
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}
