package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A call the gateway answers itself with a JSON-RPC error. {@link Kind} says which class of error it
 * is, which decides {@code error.data} and the HTTP status.
 */
public final class GatewayException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the gateway answered instead of the agent. */
    public enum Kind {
        /** the caller's request is malformed: never reached an agent, retrying the same bytes fails again */
        REQUEST,
        /** the agent never processed the call and a retry may succeed (unreachable, timeout, busy, 502/503/504) */
        TRANSPORT_RETRYABLE,
        /** the agent never processed the call, or its reply was unusable, and a retry fails again (too large, not found) */
        TRANSPORT_FINAL,
        /** the agent answered with an HTTP error and no JSON-RPC body */
        AGENT_HTTP_ERROR
    }

    private final transient JsonNode id;
    private final int code;
    private final Kind kind;

    public GatewayException(JsonNode id, int code, String message, Kind kind) {
        super(message, null, false, false);
        this.id = id;
        this.code = code;
        this.kind = kind;
    }

    public JsonNode id() {
        return id;
    }

    public int code() {
        return code;
    }

    public Kind kind() {
        return kind;
    }

}
