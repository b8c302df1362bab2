package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.http.RequestBudget;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/** How a push config call (G14) ends: sent on to the agent, answered by the gateway, or refused; slots given back. */
final class PushOutcome implements PushConfigCalls.Outcome {

    private final HttpServerRequest request;
    private final RoutingFields fields;
    private final CallSlots permit;
    private final RequestBudget.Reservation bytes;
    private final GatewayMetrics metrics;
    private final GatewaySpan span;
    private final String agentId;
    private final long started;
    private final BiConsumer<Buffer, UnaryOperator<Buffer>> forward;

    PushOutcome(HttpServerRequest request, RoutingFields fields, CallSlots permit, RequestBudget.Reservation bytes,
            GatewayMetrics metrics, GatewaySpan span, String agentId, long started,
            BiConsumer<Buffer, UnaryOperator<Buffer>> forward) {
        this.request = request;
        this.fields = fields;
        this.permit = permit;
        this.bytes = bytes;
        this.metrics = metrics;
        this.span = span;
        this.agentId = agentId;
        this.started = started;
        this.forward = forward;
    }

    @Override
    public void forward(Buffer body, UnaryOperator<Buffer> reply) {
        forward.accept(body, reply);
    }

    @Override
    public void answer(JsonNode result) {
        release(GatewayMetrics.Outcome.OK);
        ObjectNode reply = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0");
        reply.set("id", fields.id());
        reply.set("result", result);
        request.response().setStatusCode(200).putHeader("Content-Type", "application/json").end(reply.toString());
    }

    @Override
    public void refuse(int code, String message) {
        release(GatewayMetrics.Outcome.INVALID_REQUEST);
        GatewayReplies.error(request.response(), new GatewayException(fields.id(), code, message,
                GatewayException.Kind.REQUEST), 200, false);
    }

    private void release(GatewayMetrics.Outcome outcome) {
        permit.release();
        bytes.release();
        metrics.record(agentId, fields.method(), outcome, System.nanoTime() - started);
        span.end(agentId, fields.method(), outcome, 200);
    }
}
