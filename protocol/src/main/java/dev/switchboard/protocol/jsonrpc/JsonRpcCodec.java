package dev.switchboard.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads and writes JSON-RPC 2.0 envelopes (single requests; A2A uses no batches). */
public final class JsonRpcCodec {

    private JsonRpcCodec() {}

    /** Parses and validates a request body; throws {@link JsonRpcException} carrying -32700 or -32600. */
    public static JsonRpcRequest readRequest(byte[] body) {
        throw new UnsupportedOperationException("skeleton");
    }

    public static JsonRpcResponse readResponse(JsonNode json) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** {"jsonrpc":"2.0","id":…,"result":…}, the id echoed with its JSON type. */
    public static String result(JsonNode id, JsonNode result) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** {"jsonrpc":"2.0","id":…,"error":…}; errorObject is what WireCodec.writeError produced. */
    public static String error(JsonNode id, JsonNode errorObject) {
        throw new UnsupportedOperationException("skeleton");
    }

    public static String request(JsonNode id, String method, JsonNode params) {
        throw new UnsupportedOperationException("skeleton");
    }
}
