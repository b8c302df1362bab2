package dev.switchboard.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC error object. {@code data} is any JSON value in 0.3 and an array of ProtoJSON Any
 * objects (e.g. google.rpc.ErrorInfo) in 1.0; null when absent.
 */
public record JsonRpcError(int code, String message, JsonNode data) {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    public static final int TASK_NOT_FOUND = -32001;
    public static final int TASK_NOT_CANCELABLE = -32002;
    public static final int PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;
    public static final int UNSUPPORTED_OPERATION = -32004;
    public static final int CONTENT_TYPE_NOT_SUPPORTED = -32005;
    public static final int INVALID_AGENT_RESPONSE = -32006;
    public static final int EXTENDED_CARD_NOT_CONFIGURED = -32007;
    public static final int EXTENSION_SUPPORT_REQUIRED = -32008;
    public static final int VERSION_NOT_SUPPORTED = -32009;

    public static JsonRpcError of(int code, String message) {
        return new JsonRpcError(code, message, null);
    }
}
