package dev.switchboard.mcp;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerResponse;

/**
 * The transport's own refusals, as JSON-RPC error bodies on the HTTP status MCP's Streamable HTTP names (400 bad
 * request, 404 unknown session, 406, 409, 413, 503 busy). Messages name the problem; exception texts from inside never
 * reach a client ({@link #safe}).
 */
final class McpErrors {

    private McpErrors() {}

    static void http(HttpServerResponse response, int status, Object id, int code, String message) {
        if (response.ended() || response.closed()) {
            return;
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("jsonrpc", "2.0");
        if (id instanceof Number n) {
            body.put("id", n.longValue());
        } else if (id != null) {
            body.put("id", id.toString());
        } else {
            body.putNull("id");
        }
        ObjectNode error = body.putObject("error");
        error.put("code", code);
        error.put("message", message);
        response.setStatusCode(status).putHeader("Content-Type", "application/json").end(body.toString());
    }

    /** What a failure may tell a client: an McpError's own message, else only its kind. */
    static String safe(Throwable e) {
        if (e instanceof io.modelcontextprotocol.spec.McpError m && m.getJsonRpcError() != null) {
            return m.getJsonRpcError().message();
        }
        return e.getClass().getSimpleName();
    }
}
