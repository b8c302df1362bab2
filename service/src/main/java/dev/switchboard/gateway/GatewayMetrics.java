package dev.switchboard.gateway;

import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.registry.AgentRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * G12: the gateway's meters, per agent and method. Method labels are the A2A names (either version)
 * or "other", and unknown agent ids are labelled "unknown", so a caller cannot grow the label set.
 */
public final class GatewayMetrics {

    /** How a gateway call ended. */
    public enum Outcome {
        OK, APPLICATION_ERROR, AGENT_HTTP_ERROR, TIMEOUT, UNREACHABLE, BUSY, TOO_LARGE, NOT_FOUND,
        INVALID_REQUEST, UNAUTHORIZED, CALLER_DISCONNECTED, IDLE_TIMEOUT, EGRESS_REFUSED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final MeterRegistry meters;
    private final AgentRegistry agents;
    private final ConcurrentHashMap<String, AtomicInteger> openStreams = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Boolean> inFlightGauges = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Labels, Counter> requests = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Labels, Timer> latencies = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> rejections = new ConcurrentHashMap<>();

    private record Labels(String agent, String method, Outcome outcome) {}

    public GatewayMetrics(MeterRegistry meters, AgentRegistry agents) {
        this.meters = meters;
        this.agents = agents;
    }

    public static String methodLabel(String method) {
        return method != null && A2aMethod.fromName(method).isPresent() ? method : "other";
    }

    public void record(String agentId, String method, Outcome outcome, long nanos) {
        // a call that ends after its agent was removed must not bring the removed agent's meters back
        String agentLabel = agentId.equals("unknown") || agents.find(agentId).isPresent() ? agentId : "unknown";
        String m = methodLabel(method);
        // meters are looked up once per label set and kept: registering on every call costs the hot path
        requests.computeIfAbsent(new Labels(agentLabel, m, outcome), l -> Counter.builder("switchboard_gateway_requests_total")
                .description("Gateway calls by agent, method and outcome")
                .tags("agent", l.agent(), "method", l.method(), "outcome", l.outcome().label())
                .register(meters)).increment();
        if (nanos >= 0) {
            latencies.computeIfAbsent(new Labels(agentLabel, m, null), l -> Timer.builder("switchboard_gateway_request_duration_seconds")
                    .description("Gateway call latency: to the end of the reply, or to the first event of a stream")
                    .tags("agent", l.agent(), "method", l.method())
                    .publishPercentileHistogram()
                    .register(meters)).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
        if (outcome == Outcome.BUSY) {
            rejections.computeIfAbsent(agentLabel, a -> Counter.builder("switchboard_gateway_rejections_total")
                    .description("Calls refused because the agent's concurrency cap was reached")
                    .tags("agent", a, "reason", "busy")
                    .register(meters)).increment();
        }
    }

    /** Registers the in-flight gauge of an agent once; it reads the agent's limiter. */
    public void watchInFlight(String agentId) {
        inFlightGauges.computeIfAbsent(agentId, id -> {
            Gauge.builder("switchboard_gateway_in_flight", agents.limiter(id), l -> l.inFlight())
                    .description("Calls in flight (sync and streams) per agent")
                    .tag("agent", id)
                    .register(meters);
            return Boolean.TRUE;
        });
    }

    /** The gateway-wide gauge of request bytes buffered (see {@code RequestBudget}). */
    void watchRequestBytes(RequestBudget budget) {
        Gauge.builder("switchboard_gateway_request_bytes_in_flight", budget, RequestBudget::inUse)
                .strongReference(true)
                .description("Request bytes of all callers reserved or buffered by the gateway")
                .register(meters);
    }

    /**
     * Drops every meter of a removed agent, so that registering and removing agents with fresh ids
     * cannot grow the meter registry without bound.
     */
    public void forget(String agentId) {
        inFlightGauges.remove(agentId);
        openStreams.remove(agentId);
        rejections.remove(agentId);
        requests.keySet().removeIf(l -> l.agent().equals(agentId));
        latencies.keySet().removeIf(l -> l.agent().equals(agentId));
        for (Meter meter : List.copyOf(meters.getMeters())) {
            if (meter.getId().getName().startsWith("switchboard_gateway_") && agentId.equals(meter.getId().getTag("agent"))) {
                meters.remove(meter);
            }
        }
    }

    public AtomicInteger openStreams(String agentId) {
        return openStreams.computeIfAbsent(agentId, id -> {
            AtomicInteger n = new AtomicInteger();
            Gauge.builder("switchboard_gateway_streams_open", n, AtomicInteger::get)
                    .description("SSE streams being relayed per agent")
                    .tag("agent", id)
                    .register(meters);
            return n;
        });
    }

}
