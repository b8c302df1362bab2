package dev.switchboard.mcp;

import dev.switchboard.tracing.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The trace span of one MCP tool call that reaches an agent, as the gateway makes one per relayed call: the calls to
 * the agent carry its context ({@code traceparent}), so the agent's spans are its children. Nothing when tracing is
 * off.
 */
final class McpSpan {

    private static final AttributeKey<String> TOOL = AttributeKey.stringKey("mcp.tool.name");
    private static final AttributeKey<String> AGENT = AttributeKey.stringKey("switchboard.agent.id");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("switchboard.mcp.outcome");

    private final Span span;
    private boolean ended;

    private McpSpan(Span span) {
        this.span = span;
    }

    static McpSpan start(Tracing tracing, String tool, String agentId) {
        if (!tracing.on()) {
            return new McpSpan(null);
        }
        return new McpSpan(tracing.tracer().spanBuilder("tools/call " + tool)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(TOOL, tool)
                .setAttribute(AGENT, agentId)
                .startSpan());
    }

    /** The headers that carry this span's context to the agent (none when tracing is off). */
    Map<String, String> headers() {
        Map<String, String> out = new LinkedHashMap<>();
        if (span != null) {
            Tracing.propagator().inject(Context.root().with(span), out, (m, k, v) -> m.put(k, v));
        }
        return out;
    }

    void end(McpMetrics.Outcome outcome) {
        if (span == null || ended) {
            return;
        }
        ended = true;
        span.setAttribute(OUTCOME, outcome.label());
        if (outcome.failure()) {
            span.setStatus(StatusCode.ERROR, outcome.label());
        }
        span.end();
    }
}
