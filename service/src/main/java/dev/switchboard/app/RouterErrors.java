package dev.switchboard.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.http.JsonHttp;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the router answers when Vert.x Web itself refuses a request (a malformed path or query, a missing
 * Host, a body over a limit, a broken chunked body) or a handler fails: a short JSON error — JSON-RPC under
 * {@code /a2a}, where callers read bodies — and a log line that matches who is at fault. A caller's bad
 * request is logged at DEBUG (one ERROR line per hostile request would drown the log); a fault of ours at
 * ERROR, with the request line and the exception.
 */
final class RouterErrors {

    private static final Logger LOG = LoggerFactory.getLogger(RouterErrors.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private RouterErrors() {}

    /**
     * Error handlers cover what fails outside any route (Vert.x refusing a path or a Host); {@link #answer} as the
     * failure handler of the last route ({@link Routes}) covers what fails inside one that has no failure handler of
     * its own.
     */
    static void mount(Router router) {
        for (int status = 400; status < 600; status++) {
            router.errorHandler(status, RouterErrors::answer);
        }
    }

    static void answer(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        int status = ctx.statusCode();
        if (status < 400) {
            // no status and no exception: Vert.x refused the request before any route saw it (a malformed path)
            status = failure == null ? 400
                    : failure instanceof io.vertx.ext.web.handler.HttpException h ? h.getStatusCode() : 500;
        }
        if (status >= 500 && JsonHttp.callersFault(failure)) {
            status = 400;
        }
        String path = ctx.request().path();
        if (status >= 500) {
            LOG.error("{} {} failed", ctx.request().method(), path, failure);
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("{} {} refused with {}: {}", ctx.request().method(), path, status, String.valueOf(failure));
        }
        HttpServerResponse r = ctx.response();
        if (r.ended() || r.closed() || r.headWritten()) {
            if (!r.ended() && !r.closed()) {
                r.reset();
            }
            return;
        }
        String reason = status >= 500 ? "internal error" : reason(status);
        if (status == 400 || status == 413 || status == 431) {
            // the rest of a request we could not read cannot be trusted to frame the next one
            r.putHeader("Connection", "close");
        }
        if (path != null && path.startsWith("/a2a")) {
            ObjectNode error = JSON.createObjectNode();
            error.put("code", status >= 500 ? -32603 : -32600);
            error.put("message", status >= 500 ? reason : "invalid request: " + reason);
            error.putObject("data").put("executed", false).put("retryable", status >= 500).put("source", "gateway");
            ObjectNode body = JSON.createObjectNode().put("jsonrpc", "2.0").putNull("id");
            body.set("error", error);
            JsonHttp.json(r, status, body);
        } else {
            JsonHttp.error(r, status, reason, null);
        }
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "bad request: the request line, headers or body could not be read";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not found";
            case 405 -> "method not allowed";
            case 413 -> "request body too large";
            case 414 -> "request URI too long";
            case 415 -> "unsupported media type: send application/json";
            case 431 -> "request headers too large";
            default -> "request refused (HTTP " + status + ")";
        };
    }
}
