package dev.switchboard.gateway;

import dev.switchboard.tracing.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.util.EnumSet;
import java.util.Set;

/**
 * The trace span of one gateway call: a SERVER span that continues the caller's W3C trace context (its
 * {@code tracestate} kept) and ends with the call — for a relayed stream, when the stream ends. The request forwarded
 * to the agent carries this span's context, so the agent's spans are its children: like a reverse proxy, the gateway
 * makes one span per hop, not a second one for the upstream request.
 *
 * <p>{@link #OFF} when tracing is off: nothing is made or changed, and the caller's {@code traceparent} and
 * {@code tracestate} reach the agent as the header policy says (G5). All calls come from the call's event loop.
 */
final class GatewaySpan {

    static final GatewaySpan OFF = new GatewaySpan(null);

    static final String NAME = "POST /a2a/{agentId}";
    /** KubeMQ's second streaming mode: {@code GET /a2a/{agentId}/stream}. */
    static final String STREAM = "GET /a2a/{agentId}/stream";
    private static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");
    private static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
    private static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    private static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
    private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
    static final AttributeKey<String> AGENT = AttributeKey.stringKey("switchboard.agent.id");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("switchboard.gateway.outcome");
    /** OpenTelemetry's attribute for the authenticated user; spans are not metrics, so any caller id may go here. */
    static final AttributeKey<String> CALLER = AttributeKey.stringKey("enduser.id");
    static final AttributeKey<String> CALLER_KIND = AttributeKey.stringKey("switchboard.caller.kind");
    /** Outcomes where the agent's answer did not reach the caller through no fault of the caller's. */
    private static final Set<GatewayMetrics.Outcome> FAILURES = EnumSet.of(GatewayMetrics.Outcome.AGENT_HTTP_ERROR,
            GatewayMetrics.Outcome.TIMEOUT, GatewayMetrics.Outcome.UNREACHABLE, GatewayMetrics.Outcome.BUSY,
            GatewayMetrics.Outcome.TOO_LARGE, GatewayMetrics.Outcome.IDLE_TIMEOUT, GatewayMetrics.Outcome.EGRESS_REFUSED);

    private static final TextMapGetter<HttpServerRequest> REQUEST_HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServerRequest request) {
            return request.headers().names();
        }

        @Override
        public String get(HttpServerRequest request, String key) {
            return request == null ? null : request.getHeader(key);
        }
    };

    private final Span span;
    private boolean ended;

    private GatewaySpan(Span span) {
        this.span = span;
    }

    static GatewaySpan start(Tracing tracing, HttpServerRequest request) {
        return start(tracing, request, NAME);
    }

    /** @param name {@link #NAME} or {@link #STREAM}: "METHOD route" */
    static GatewaySpan start(Tracing tracing, HttpServerRequest request, String name) {
        if (!tracing.on()) {
            return OFF;
        }
        Context parent = Tracing.propagator().extract(Context.root(), request, REQUEST_HEADERS);
        int space = name.indexOf(' ');
        return new GatewaySpan(tracing.tracer().spanBuilder(name)
                .setParent(parent)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(HTTP_METHOD, name.substring(0, space))
                .setAttribute(HTTP_ROUTE, name.substring(space + 1))
                .setAttribute(URL_PATH, request.path())
                .startSpan());
    }

    /** Names the authenticated caller (an API key's name or a JWT's subject; not a bare remote address). */
    void caller(dev.switchboard.auth.Caller caller) {
        if (span == null || caller.kind() == dev.switchboard.auth.Caller.Kind.ADDRESS) {
            return;
        }
        span.setAttribute(CALLER, caller.id());
        span.setAttribute(CALLER_KIND, caller.kind().name().toLowerCase(java.util.Locale.ROOT));
    }

    /** Replaces the caller's trace context on the upstream request with this span's. */
    void propagate(MultiMap outbound) {
        if (span == null) {
            return;
        }
        outbound.remove("traceparent");
        outbound.remove("tracestate"); // a tracestate without its traceparent means nothing (W3C)
        Tracing.propagator().inject(Context.root().with(span), outbound, (headers, name, value) -> headers.set(name, value));
    }

    /**
     * Ends the span once (later calls do nothing).
     *
     * @param agentId the agent as the metrics label it ("unknown" for an id not registered)
     * @param method the JSON-RPC method, null when the call was refused before its body was read
     * @param status the HTTP status the caller was answered with
     */
    void end(String agentId, String method, GatewayMetrics.Outcome outcome, int status) {
        if (span == null || ended) {
            return;
        }
        ended = true;
        span.setAttribute(AGENT, agentId);
        span.setAttribute(OUTCOME, outcome.label());
        span.setAttribute(HTTP_STATUS, (long) status);
        if (method != null) {
            span.setAttribute(RPC_SYSTEM, "jsonrpc");
            span.setAttribute(RPC_METHOD, GatewayMetrics.methodLabel(method));
        }
        if (FAILURES.contains(outcome)) {
            span.setStatus(StatusCode.ERROR, outcome.label());
        }
        span.end();
    }
}
