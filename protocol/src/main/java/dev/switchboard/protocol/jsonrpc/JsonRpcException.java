package dev.switchboard.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/** A request that cannot be served, with the JSON-RPC error to answer and the id to answer it with. */
public class JsonRpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient JsonNode id;
    private final int code;

    public JsonRpcException(JsonNode id, int code, String message) {
        super(message);
        this.id = id;
        this.code = code;
    }

    public JsonNode id() {
        return id;
    }

    public int code() {
        return code;
    }
}
