package dev.switchboard.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC 2.0 request. {@code id} is kept as the JSON node it was (string, number or null) so it
 * can be echoed with its type; a null {@code id} reference means the member was absent (a notification).
 */
public record JsonRpcRequest(JsonNode id, String method, JsonNode params) {

    public boolean isNotification() {
        return id == null;
    }
}
