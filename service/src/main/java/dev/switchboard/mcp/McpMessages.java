package dev.switchboard.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

/** Reads one POSTed JSON-RPC message, naming what is wrong with one that is not (never an exception's text). */
final class McpMessages {

    /** A body that is not one JSON-RPC 2.0 message; {@link #code()} is the JSON-RPC error code to answer. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;
        private final int code;

        Unreadable(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        int code() {
            return code;
        }
    }

    private McpMessages() {}

    static McpSchema.JSONRPCMessage read(McpJsonMapper json, String body) throws Unreadable {
        String trimmed = body.strip();
        if (trimmed.isEmpty()) {
            throw new Unreadable(McpSchema.ErrorCodes.INVALID_REQUEST, "invalid request: empty body (send one JSON-RPC message)");
        }
        if (trimmed.charAt(0) == '[') {
            throw new Unreadable(McpSchema.ErrorCodes.INVALID_REQUEST,
                    "invalid request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message");
        }
        if (trimmed.charAt(0) != '{') {
            throw new Unreadable(McpSchema.ErrorCodes.PARSE_ERROR, "parse error: the body is not a JSON object");
        }
        java.util.Map<?, ?> raw;
        try {
            raw = json.readValue(trimmed, java.util.Map.class);
        } catch (java.io.IOException | RuntimeException e) {
            throw new Unreadable(McpSchema.ErrorCodes.PARSE_ERROR, "parse error: the body is not valid JSON");
        }
        if (!"2.0".equals(raw.get("jsonrpc"))) {
            throw new Unreadable(McpSchema.ErrorCodes.INVALID_REQUEST, "invalid request: jsonrpc must be \"2.0\"");
        }
        Object method = raw.get("method");
        if (raw.containsKey("method") && !(method instanceof String m && !m.isEmpty())) {
            throw new Unreadable(McpSchema.ErrorCodes.INVALID_REQUEST, "invalid request: method must be a non-empty string");
        }
        Object id = raw.get("id");
        if (id != null && !(id instanceof String) && !(id instanceof Number)) {
            throw new Unreadable(McpSchema.ErrorCodes.INVALID_REQUEST, "invalid request: id must be a string or a number");
        }
        Object params = raw.get("params");
        if (params != null && !(params instanceof java.util.Map)) {
            throw new Unreadable(McpSchema.ErrorCodes.INVALID_REQUEST, "invalid request: params must be an object");
        }
        if (method == null && id == null) {
            throw new Unreadable(McpSchema.ErrorCodes.INVALID_REQUEST, "invalid request: neither a method nor a response id");
        }
        try {
            return McpSchema.deserializeJsonRpcMessage(json, trimmed);
        } catch (java.io.IOException | RuntimeException e) {
            throw new Unreadable(McpSchema.ErrorCodes.INVALID_REQUEST, "invalid request: not a JSON-RPC 2.0 message");
        }
    }
}
