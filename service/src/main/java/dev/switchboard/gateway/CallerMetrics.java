package dev.switchboard.gateway;

import dev.switchboard.auth.Caller;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code switchboard_gateway_caller_requests_total{caller, caller_kind, agent_id}}: the gateway's calls by who made
 * them, counted once a call's caller is known and its agent found. The {@code caller} label is bounded: an API key's
 * name (the configuration bounds them), a JWT caller's id for the first {@value #MAX_JWT_CALLERS} distinct ones and
 * "other" after that (a token issuer can mint any number of subjects), and "anonymous" for callers known only by their
 * address (no credentials configured), whose addresses are not labels.
 */
public final class CallerMetrics {

    static final int MAX_JWT_CALLERS = 100;
    static final String OTHER = "other";
    static final String ANONYMOUS = "anonymous";
    public static final CallerMetrics NONE = new CallerMetrics(null);

    private final MeterRegistry meters;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final java.util.Set<String> jwtCallers = ConcurrentHashMap.newKeySet();

    public CallerMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    void count(Caller caller, String agentId) {
        if (meters == null) {
            return;
        }
        String label = label(caller);
        String kind = caller.kind().name().toLowerCase(java.util.Locale.ROOT);
        counters.computeIfAbsent(kind + '\u0000' + label + '\u0000' + agentId, k -> Counter
                .builder("switchboard_gateway_caller_requests")
                .description("Gateway calls by caller (an API key's name, a JWT's caller claim, bounded; see docs)")
                .tag("caller", label).tag("caller_kind", kind).tag("agent_id", agentId)
                .register(meters)).increment();
    }

    /** Forgets a removed agent's series here as {@link GatewayMetrics#forget} does its own. */
    public void forget(String agentId) {
        counters.entrySet().removeIf(e -> {
            if (e.getKey().endsWith('\u0000' + agentId)) {
                meters.remove(e.getValue());
                return true;
            }
            return false;
        });
    }

    String label(Caller caller) {
        return switch (caller.kind()) {
            case API_KEY -> caller.id();
            case ADDRESS -> ANONYMOUS;
            case JWT -> jwtCallers.contains(caller.id()) || admit(caller.id()) ? caller.id() : OTHER;
        };
    }

    private boolean admit(String id) {
        synchronized (jwtCallers) {
            if (jwtCallers.size() >= MAX_JWT_CALLERS) {
                return false;
            }
            jwtCallers.add(id);
            return true;
        }
    }
}
