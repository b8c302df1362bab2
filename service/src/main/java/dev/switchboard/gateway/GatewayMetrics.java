package dev.switchboard.gateway;

import dev.switchboard.http.RequestBudget;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.registry.AgentRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * G12: the gateway's meters, per agent and method. Method labels are the A2A names (either version)
 * or "other", and unknown agent ids are labelled "unknown", so a caller cannot grow the label set.
 *
 * <p>With KubeMQ's names on ({@code compat: kubemq}) the same calls are also counted as KubeMQ counts them:
 * {@code kubemq_a2a_requests_total{agent_id, method}} (once per call; {@code method} one of KubeMQ's five
 * standard names, anything else "unknown") and {@code kubemq_a2a_sse_streams_active{agent_id}}.
 *
 * <p>Every meter is looked up once and kept in its agent's {@link AgentMeters}, indexed by method and outcome:
 * a call costs a map read and the increments, never a meter-registry lookup or a label object.
 */
public final class GatewayMetrics {

    /** How a gateway call ended. */
    public enum Outcome {
        OK, APPLICATION_ERROR, AGENT_HTTP_ERROR, TIMEOUT, UNREACHABLE, BUSY, TOO_LARGE, NOT_FOUND,
        INVALID_REQUEST, UNAUTHORIZED, CALLER_DISCONNECTED, IDLE_TIMEOUT, EGRESS_REFUSED, FORBIDDEN,
        RATE_LIMITED;

        private static final Outcome[] ALL = values();

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final String UNKNOWN_AGENT = "unknown";
    private static final String PREFIX = "switchboard_gateway_";
    private static final String KUBEMQ_PREFIX = "kubemq_a2a_";

    /** Switchboard's method labels: every A2A name of either version, then "other". */
    private static final List<String> METHODS;
    private static final Map<String, Integer> METHOD_INDEX = new HashMap<>();
    /** KubeMQ's method labels (its reference §9): its five standard names, then "unknown". */
    private static final List<String> KUBEMQ_METHODS =
            List.of("message/send", "message/stream", "tasks/get", "tasks/cancel", "tasks/send", "unknown");
    private static final Map<String, Integer> KUBEMQ_INDEX = new HashMap<>();

    static {
        java.util.ArrayList<String> names = new java.util.ArrayList<>();
        for (A2aMethod m : A2aMethod.values()) {
            names.add(m.v10Name());
            if (m.v03Name() != null) {
                names.add(m.v03Name());
            }
        }
        names.add("other");
        METHODS = List.copyOf(names);
        for (int i = 0; i < METHODS.size() - 1; i++) {
            METHOD_INDEX.put(METHODS.get(i), i);
        }
        for (int i = 0; i < KUBEMQ_METHODS.size() - 1; i++) {
            KUBEMQ_INDEX.put(KUBEMQ_METHODS.get(i), i);
        }
    }

    private final MeterRegistry meters;
    private final AgentRegistry agents;
    private final boolean kubemq;
    private final ConcurrentHashMap<String, AgentMeters> byAgent = new ConcurrentHashMap<>();

    public GatewayMetrics(MeterRegistry meters, AgentRegistry agents) {
        this(meters, agents, false);
    }

    /** @param kubemq also keep KubeMQ's meters ({@code compat: kubemq}) */
    public GatewayMetrics(MeterRegistry meters, AgentRegistry agents, boolean kubemq) {
        this.meters = meters;
        this.agents = agents;
        this.kubemq = kubemq;
    }

    public static String methodLabel(String method) {
        return METHODS.get(methodIndex(method));
    }

    private static int methodIndex(String method) {
        Integer i = method == null ? null : METHOD_INDEX.get(method);
        return i != null ? i : METHODS.size() - 1;
    }

    /** KubeMQ's label for a method: one of its five standard names, else "unknown". */
    public static String kubemqMethodLabel(String method) {
        return KUBEMQ_METHODS.get(kubemqIndex(method));
    }

    private static int kubemqIndex(String method) {
        Integer i = method == null ? null : KUBEMQ_INDEX.get(method);
        return i != null ? i : KUBEMQ_METHODS.size() - 1;
    }

    /** Who else hears of every call's outcome (the console's rolling per-agent figures). */
    public interface CallObserver {
        void call(String agentId, boolean ok, long nanos);
    }

    private volatile CallObserver observer;

    /** Every call {@link #record}ed is told to {@code o} too, on the thread that records it. */
    public void observe(CallObserver o) {
        this.observer = o;
    }

    /** A call's outcome, counted as a request (once per call) and, given nanos ≥ 0, timed. */
    public void record(String agentId, String method, Outcome outcome, long nanos) {
        CallObserver o = observer;
        if (o != null) {
            o.call(agentId, outcome == Outcome.OK, nanos);
        }
        AgentMeters m = meters(agentId);
        m.outcome(method, outcome, nanos);
        if (kubemq) {
            m.kubemqRequest(method);
        }
    }

    /**
     * A second outcome of a call already counted by {@link #record} (a relayed stream is counted with its first
     * event, and again when it ends otherwise than by the agent): Switchboard's outcome counter only.
     */
    public void recordEnd(String agentId, String method, Outcome outcome) {
        meters(agentId).outcome(method, outcome, -1);
    }

    private AgentMeters meters(String agentId) {
        AgentMeters m = byAgent.get(agentId);
        if (m != null) {
            return m;
        }
        // a call that ends after its agent was removed must not bring the removed agent's meters back
        String label = agentId.equals(UNKNOWN_AGENT) || agents.find(agentId).isPresent() ? agentId : UNKNOWN_AGENT;
        return byAgent.computeIfAbsent(label, AgentMeters::new);
    }

    /**
     * A call refused (429) over one of its caller's limits: {@code switchboard_gateway_rate_limited_total{agent,limit}}.
     * Looked up per refusal: a refused call is no hot path, and the labels are bounded (known agents, three limits).
     */
    public void rateLimited(String agentId, String limit) {
        String label = agents.find(agentId).isPresent() ? agentId : UNKNOWN_AGENT;
        Counter.builder(PREFIX + "rate_limited_total").tag("agent", label).tag("limit", limit)
                .description("Gateway calls refused (429) over a caller's rate or concurrency limit")
                .register(meters).increment();
    }

    /**
     * G13: a caller resumed a task's stream with {@code Last-Event-ID}: {@code switchboard_gateway_stream_resumes_total
     * {agent,from}}, {@code from} = {@code buffer} (the stream was live: replay, then follow it) or {@code agent} (it
     * had ended: replay, then a new subscription to the agent). Looked up per resume: no hot path.
     */
    public void streamResumed(String agentId, String from) {
        String label = agents.find(agentId).isPresent() ? agentId : UNKNOWN_AGENT;
        Counter.builder(PREFIX + "stream_resumes_total").tag("agent", label).tag("from", from)
                .description("Relayed task streams resumed with Last-Event-ID").register(meters).increment();
    }

    /** G13: a resume from an event no longer buffered here: {@code switchboard_gateway_stream_gaps_total{agent}}. */
    public void streamGap(String agentId) {
        String label = agents.find(agentId).isPresent() ? agentId : UNKNOWN_AGENT;
        Counter.builder(PREFIX + "stream_gaps_total").tag("agent", label)
                .description("Resumes refused because the events after Last-Event-ID are no longer buffered")
                .register(meters).increment();
    }

    /** Registers the in-flight gauge of an agent once; it reads the agent's limiter. */
    public void watchInFlight(String agentId) {
        meters(agentId).watchInFlight();
    }

    /** The server-wide gauge of request bytes buffered, by the gateway and every other route (see {@code RequestBudget}). */
    void watchRequestBytes(RequestBudget budget) {
        Gauge.builder("switchboard_gateway_request_bytes_in_flight", budget, RequestBudget::inUse)
                .strongReference(true)
                .description("Request bytes of all callers reserved or buffered, by the gateway and every other route")
                .register(meters);
    }

    /**
     * Drops every meter of a removed agent, so that registering and removing agents with fresh ids
     * cannot grow the meter registry without bound.
     */
    public void forget(String agentId) {
        byAgent.remove(agentId);
        for (Meter meter : List.copyOf(meters.getMeters())) {
            String name = meter.getId().getName();
            if ((name.startsWith(PREFIX) && agentId.equals(meter.getId().getTag("agent")))
                    || (name.startsWith(KUBEMQ_PREFIX) && agentId.equals(meter.getId().getTag("agent_id")))) {
                meters.remove(meter);
            }
        }
    }

    public AtomicInteger openStreams(String agentId) {
        return meters(agentId).openStreams();
    }

    /**
     * One agent's meters, created on first use. Calls of one agent arrive on every event loop: the slots are
     * atomic, and two threads creating the same meter get the one the meter registry keeps.
     */
    private final class AgentMeters {
        private final String agent;
        private final AtomicReferenceArray<Counter> requests =
                new AtomicReferenceArray<>(METHODS.size() * Outcome.ALL.length);
        private final AtomicReferenceArray<Timer> latencies = new AtomicReferenceArray<>(METHODS.size());
        private final AtomicReferenceArray<Counter> kubemqRequests = new AtomicReferenceArray<>(KUBEMQ_METHODS.size());
        private volatile Counter rejections;
        private volatile AtomicInteger openStreams;
        private volatile boolean inFlightWatched;

        AgentMeters(String agent) {
            this.agent = agent;
        }

        void outcome(String method, Outcome outcome, long nanos) {
            int mi = methodIndex(method);
            int slot = mi * Outcome.ALL.length + outcome.ordinal();
            Counter c = requests.get(slot);
            if (c == null) {
                c = Counter.builder("switchboard_gateway_requests_total")
                        .description("Gateway calls by agent, method and outcome")
                        .tags("agent", agent, "method", METHODS.get(mi), "outcome", outcome.label())
                        .register(meters);
                requests.set(slot, c);
            }
            c.increment();
            if (nanos >= 0) {
                Timer t = latencies.get(mi);
                if (t == null) {
                    t = Timer.builder("switchboard_gateway_request_duration_seconds")
                            .description("Gateway call latency: to the end of the reply, or to the first event of a stream")
                            .tags("agent", agent, "method", METHODS.get(mi))
                            .publishPercentileHistogram()
                            .register(meters);
                    latencies.set(mi, t);
                }
                t.record(nanos, TimeUnit.NANOSECONDS);
            }
            if (outcome == Outcome.BUSY) {
                Counter r = rejections;
                if (r == null) {
                    r = Counter.builder("switchboard_gateway_rejections_total")
                            .description("Calls refused because the agent's concurrency cap was reached")
                            .tags("agent", agent, "reason", "busy")
                            .register(meters);
                    rejections = r;
                }
                r.increment();
            }
        }

        void kubemqRequest(String method) {
            int ki = kubemqIndex(method);
            Counter c = kubemqRequests.get(ki);
            if (c == null) {
                c = Counter.builder("kubemq_a2a_requests_total")
                        .description("A2A requests by agent and method (KubeMQ's names)")
                        .tags("agent_id", agent, "method", KUBEMQ_METHODS.get(ki))
                        .register(meters);
                kubemqRequests.set(ki, c);
            }
            c.increment();
        }

        void watchInFlight() {
            if (inFlightWatched) {
                return;
            }
            synchronized (this) {
                if (!inFlightWatched) {
                    Gauge.builder("switchboard_gateway_in_flight", agents.limiter(agent), l -> l.inFlight())
                            .description("Calls in flight (sync and streams) per agent")
                            .tag("agent", agent)
                            .register(meters);
                    inFlightWatched = true;
                }
            }
        }

        AtomicInteger openStreams() {
            AtomicInteger n = openStreams;
            if (n != null) {
                return n;
            }
            synchronized (this) {
                if (openStreams == null) {
                    AtomicInteger created = new AtomicInteger();
                    Gauge.builder("switchboard_gateway_streams_open", created, AtomicInteger::get)
                            .description("SSE streams being relayed per agent")
                            .tag("agent", agent)
                            .register(meters);
                    if (kubemq) {
                        Gauge.builder("kubemq_a2a_sse_streams_active", created, AtomicInteger::get)
                                .description("SSE streams being relayed per agent (KubeMQ's name)")
                                .tag("agent_id", agent)
                                .register(meters);
                    }
                    openStreams = created;
                }
                return openStreams;
            }
        }
    }
}
