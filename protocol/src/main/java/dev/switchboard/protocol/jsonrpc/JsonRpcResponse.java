package dev.switchboard.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/** A JSON-RPC 2.0 response: exactly one of {@code result} and {@code error} is set. */
public record JsonRpcResponse(JsonNode id, JsonNode result, JsonRpcError error) {

    public boolean isError() {
        return error != null;
    }
}
