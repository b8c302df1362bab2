package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import io.vertx.ext.web.RoutingContext;

/** One JSON-RPC call being answered in its version, with its id echoed as sent. */
final class RpcCall {

    private final RoutingContext ctx;
    private final WireCodec codec;
    private final JsonNode id;
    private boolean hitlActivated;

    RpcCall(RoutingContext ctx, WireCodec codec, JsonNode id) {
        this.ctx = ctx;
        this.codec = codec;
        this.id = id;
    }

    WireCodec codec() {
        return codec;
    }

    void reply(JsonNode result) {
        json(JsonRpcCodec.result(id, result));
    }

    /** A JSON-RPC error as plain JSON with HTTP 200, as a2a-java answers every JSON-RPC error. */
    void error(int code, String message) {
        json(JsonRpcCodec.error(id, codec.writeError(JsonRpcError.of(code, message))));
    }

    /** A bare HTTP status with no JSON-RPC body; redirects point back at the endpoint. */
    void httpStatus(int status, String endpointUrl) {
        var response = ctx.response().setStatusCode(status).putHeader("Content-Type", "text/plain");
        if (status >= 300 && status < 400 && endpointUrl != null) {
            response.putHeader("Location", endpointUrl);
        } else if (status == 401) {
            response.putHeader("WWW-Authenticate", "Bearer");
        }
        response.end("testkit: HTTP " + status);
    }

    /**
     * Activates kagent's hitl/v1 extension for this call and echoes it in the {@value KagentHitl#HEADER} response
     * header, as kagent's servers echo the extensions they activated.
     */
    void activateHitl() {
        hitlActivated = true;
        header(KagentHitl.HEADER, KagentHitl.URI);
    }

    /** True when the call asked for hitl/v1 and the agent supports it. */
    boolean hitlActivated() {
        return hitlActivated;
    }

    /** Adds a header to the response, whatever it turns out to be. */
    void header(String name, String value) {
        ctx.response().putHeader(name, value);
    }

    /** A redirect to {@code location}, no body. */
    void redirect(int status, String location) {
        ctx.response().setStatusCode(status).putHeader("Location", location).putHeader("Content-Type", "text/plain")
                .end("testkit: HTTP " + status);
    }

    /** The stream answering a send, misbehaving as {@code shape} says. */
    EventStream sendStream(EventStream.Shape shape) {
        return stream(shape, false);
    }

    /** A stream; {@code endOnPausedTask} when it starts from a task that may be paused already. */
    EventStream stream(EventStream.Shape shape, boolean endOnPausedTask) {
        return new EventStream(ctx.request(), codec, id, shape, endOnPausedTask);
    }

    /** The stream answering SubscribeToTask (or a repeated send, which follows the task it already started). */
    EventStream subscription() {
        return new EventStream(ctx.request(), codec, id, EventStream.Shape.NORMAL, true);
    }

    /** Drops the connection without any answer. */
    void cut() {
        ctx.response().reset();
    }

    /** Calls {@code onGone} when the caller hangs up before the answer. */
    void onHangUp(Runnable onGone) {
        ctx.response().closeHandler(v -> onGone.run());
    }

    private void json(String body) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json").end(body);
    }
}
