package dev.switchboard.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

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

    /**
     * The google.rpc.ErrorInfo {@code reason} the 1.0 SDKs attach to a code (domain
     * {@code a2a-protocol.org}); empty for the plain JSON-RPC codes that carry none.
     */
    public static Optional<String> errorInfoReason(int code) {
        switch (code) {
            case INVALID_PARAMS: return Optional.of("INVALID_PARAMS");
            case TASK_NOT_FOUND: return Optional.of("TASK_NOT_FOUND");
            case TASK_NOT_CANCELABLE: return Optional.of("TASK_NOT_CANCELABLE");
            case PUSH_NOTIFICATION_NOT_SUPPORTED: return Optional.of("PUSH_NOTIFICATION_NOT_SUPPORTED");
            case UNSUPPORTED_OPERATION: return Optional.of("UNSUPPORTED_OPERATION");
            case CONTENT_TYPE_NOT_SUPPORTED: return Optional.of("CONTENT_TYPE_NOT_SUPPORTED");
            case INVALID_AGENT_RESPONSE: return Optional.of("INVALID_AGENT_RESPONSE");
            case EXTENDED_CARD_NOT_CONFIGURED: return Optional.of("EXTENDED_AGENT_CARD_NOT_CONFIGURED");
            case EXTENSION_SUPPORT_REQUIRED: return Optional.of("EXTENSION_SUPPORT_REQUIRED");
            case VERSION_NOT_SUPPORTED: return Optional.of("VERSION_NOT_SUPPORTED");
            default: return Optional.empty();
        }
    }
}
