package dev.switchboard.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.CallFailure.HttpStatus;
import dev.switchboard.protocol.CallFailure.Malformed;
import dev.switchboard.protocol.CallFailure.RpcError;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.codec.A2aFormatException;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.jsonrpc.JsonRpcResponse;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;

/** What a complete, non-streaming JSON-RPC reply says: a result to read, or why the call failed. */
sealed interface RpcReply {

    /** The {@code result} member, not yet read (it may be JSON null). */
    record Result(JsonNode result) implements RpcReply {}

    record Failed(CallFailure failure) implements RpcReply {}

    /**
     * The reply rules, in order: a redirect is never followed; 401 and 403 reject the credentials
     * whatever the body says (agent contract, Errors); a JSON-RPC error counts on any status, because
     * A2A servers send them with 200, 400 and 500; any other non-2xx is its status; a 2xx must hold a
     * JSON-RPC response.
     */
    static RpcReply of(int status, Buffer body, Duration retryAfter) {
        if (isRedirect(status) || status == 401 || status == 403) {
            return new Failed(new HttpStatus(status, retryAfter));
        }
        JsonRpcResponse response;
        String problem;
        try {
            response = JsonRpcCodec.readResponse(Json.parse(body.getBytes()));
            problem = null;
        } catch (A2aFormatException e) {
            response = null;
            problem = e.getMessage();
        }
        if (response != null && response.isError()) {
            // the status goes with it: the bridge tells a 4xx's error (not sent) from a 5xx's (outcome unknown)
            return new Failed(new RpcError(response.error().code(), response.error().message(), retryAfter, status));
        }
        if (status < 200 || status >= 300) {
            return new Failed(new HttpStatus(status, retryAfter));
        }
        if (response == null) {
            return new Failed(new Malformed("HTTP " + status + " without a JSON-RPC response: " + problem));
        }
        return new Result(response.result());
    }

    static boolean isRedirect(int status) {
        return status >= 300 && status < 400;
    }

    static RpcError rpcError(JsonRpcError error, Duration retryAfter) {
        return new RpcError(error.code(), error.message(), retryAfter);
    }
}
