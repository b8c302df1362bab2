package dev.switchboard.gateway;

import dev.switchboard.http.ContentLength;
import dev.switchboard.http.RequestBudget;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * The gateway's JSON-RPC error replies to calls it refuses: with the request's id when a small body can tell it, or
 * unread (and the connection closed) when reading the body would be the cost the refusal avoids.
 */
public final class GatewayReplies {

    static final int ID_PEEK_BYTES = 64 * 1024;

    private final RequestBudget budget;

    GatewayReplies(RequestBudget budget) {
        this.budget = budget;
    }

    /**
     * A refusal that names the request's id, as JSON-RPC asks and callers match on: a small body (up to
     * {@value #ID_PEEK_BYTES} bytes, inside the byte budget) is read only to find its id. A larger one, or
     * one the budget has no room for, is not read, and the error's id is null.
     */
    void namingId(HttpServerRequest request, GatewayException e, int status, boolean retryAfter) {
        long declared = declaredLength(request);
        RequestBudget.Reservation bytes = budget.open();
        if (request.isEnded() || declared > ID_PEEK_BYTES || (declared > 0 && !bytes.grow(declared))) {
            bytes.release();
            unread(request, e, status, retryAfter);
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] done = {false};
        request.handler(chunk -> {
            if (done[0]) {
                return;
            }
            if (body.length() + chunk.length() > ID_PEEK_BYTES || (declared < 0 && !bytes.grow(chunk.length()))) {
                done[0] = true;
                bytes.release();
                unread(request, e, status, retryAfter);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(v -> {
            if (!done[0]) {
                done[0] = true;
                bytes.release();
                error(request.response(), new GatewayException(idOf(body), e.code(), e.getMessage(), e.kind()),
                        status, retryAfter);
            }
        });
        request.exceptionHandler(x -> {
            if (!done[0]) {
                done[0] = true;
                bytes.release();
            }
        });
        request.resume();
    }

    /** The id of a JSON-RPC request, or null when the body has none that can be read. */
    private static com.fasterxml.jackson.databind.JsonNode idOf(Buffer body) {
        try {
            return RoutingFields.parse(body.getBytes()).id();
        } catch (GatewayException invalid) {
            return invalid.id();
        }
    }

    /**
     * Answers a call whose body was not read. Its connection is closed after the answer (when the body
     * has not all arrived yet): reading the rest only to throw it away is what we refuse to do.
     */
    static void unread(HttpServerRequest request, GatewayException e, int status, boolean retryAfter) {
        if (!request.isEnded()) {
            request.response().putHeader("Connection", "close");
        }
        error(request.response(), e, status, retryAfter);
    }

    static void error(HttpServerResponse response, GatewayException e, int status, boolean retryAfter) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).putHeader("Content-Type", "application/json");
        if (retryAfter) {
            response.putHeader("Retry-After", "1");
        }
        response.end(GatewayErrors.body(e));
    }

    private static long declaredLength(HttpServerRequest request) {
        return ContentLength.of(request.getHeader(HttpHeaders.CONTENT_LENGTH));
    }

    /** {@code /a2a/{agentId}} with another method than POST. */
    public static void wrongMethod(RoutingContext ctx) {
        ctx.response().setStatusCode(405).putHeader("Allow", "POST")
                .putHeader("Content-Type", "application/json")
                .end("{\"error\":\"use POST with a JSON-RPC 2.0 body\"}");
    }

    /** {@code POST /a2a} without an agent id. */
    public static void missingAgentId(RoutingContext ctx) {
        error(ctx.response(), new GatewayException(null, JsonRpcError.INVALID_REQUEST,
                "invalid request: missing agent id: POST to /a2a/{agentId}", GatewayException.Kind.REQUEST), 200, false);
    }
}
