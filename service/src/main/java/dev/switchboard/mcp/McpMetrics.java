package dev.switchboard.mcp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * The MCP door's metrics, beside the gateway's (G12): {@code switchboard_mcp_tool_calls_total{tool,agent,outcome}},
 * {@code switchboard_mcp_tool_call_seconds{tool,outcome}} and {@code switchboard_mcp_sessions}. Tools are labelled by
 * kind ({@code send_message}, …, {@code skill} for every per-skill tool), so the label's values are a fixed few;
 * agents by id, like the gateway's, and an agent that is not registered as {@code unknown}.
 */
final class McpMetrics {

    /** How a tool call ended. */
    enum Outcome {
        OK(false),
        INPUT_REQUIRED(false),
        BAD_ARGUMENTS(false),
        NOT_FOUND(false),
        FORBIDDEN(false),
        BUSY(true),
        TIMEOUT(true),
        AGENT_ERROR(true),
        UNREACHABLE(true),
        TOO_LARGE(true),
        EGRESS_REFUSED(true),
        CANCELLED(false),
        CLIENT_GONE(false);

        private final boolean failure;

        Outcome(boolean failure) {
            this.failure = failure;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        boolean failure() {
            return failure;
        }
    }

    private final MeterRegistry meters;

    McpMetrics(MeterRegistry meters, IntSupplier sessions) {
        this.meters = meters;
        Gauge.builder("switchboard_mcp_sessions", sessions::getAsInt)
                .description("MCP sessions open at /mcp").register(meters);
    }

    void record(String tool, String agentId, Outcome outcome, long nanos) {
        Counter.builder("switchboard_mcp_tool_calls").description("MCP tool calls, by tool, agent and outcome")
                .tag("tool", tool).tag("agent", agentId == null ? "unknown" : agentId).tag("outcome", outcome.label())
                .register(meters).increment();
        Timer.builder("switchboard_mcp_tool_call_seconds").description("MCP tool call latency")
                .tag("tool", tool).tag("outcome", outcome.label())
                .publishPercentileHistogram(false)
                .register(meters).record(Duration.ofNanos(Math.max(0, nanos)));
    }

    /** Drops a removed agent's series, as the gateway does. */
    void forget(String agentId) {
        meters.getMeters().stream()
                .filter(m -> m.getId().getName().startsWith("switchboard_mcp_") && agentId.equals(m.getId().getTag("agent")))
                .toList()
                .forEach(meters::remove);
    }
}
