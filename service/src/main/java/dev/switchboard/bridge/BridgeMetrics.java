package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Outcome;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.protocol.CallFailure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Supplier;

/**
 * The chat bridge's meters on {@code /metrics} (issue 9), all named {@code switchboard_bridge_*} but the
 * credential-rejection counter, which keeps its name. Labels are bounded: the configured bindings and their
 * platforms, turn outcomes, call methods and a small set of call results; never a thread or message id.
 * Per-binding meters are registered at start, so a dashboard sees zeros rather than nothing before the
 * first turn (and the 401/403 counter exists before the first rejection).
 */
final class BridgeMetrics {

    /** Where a meter's labels come from: the binding a thread belongs to and that binding's platform. */
    record Scope(Platform platform, String binding) {
        /** The {@code platform} tag: the platform's config name, {@code unknown} for a binding no longer in force. */
        String platformTag() {
            return platform == null ? "unknown" : platform.configName();
        }
    }

    private record CallKey(String binding, String method, String result) {}

    private record TurnKey(Scope scope, String outcome) {}

    private final MeterRegistry meters;
    private final Map<String, Scope> scopes = new ConcurrentHashMap<>();
    private final Map<Scope, Counter> started = new ConcurrentHashMap<>();
    private final Map<TurnKey, Counter> finished = new ConcurrentHashMap<>();
    private final Map<TurnKey, Timer> durations = new ConcurrentHashMap<>();
    private final Map<CallKey, Counter> calls = new ConcurrentHashMap<>();
    private final Map<String, Counter> resends = new ConcurrentHashMap<>();
    private final Map<String, Counter> busyWaits = new ConcurrentHashMap<>();
    private final Map<String, Counter> cancels = new ConcurrentHashMap<>();
    private final Map<String, Counter> credentialRejections = new ConcurrentHashMap<>();
    private final Timer commits;
    /** the Bindings in force (a live map in watch mode): a Binding added later is counted under its platform */
    private final Map<String, BindingRuntime> bindings;

    BridgeMetrics(MeterRegistry meters, Map<String, BindingRuntime> bindings, Supplier<Number> openSessions,
            ThreadPoolExecutor[] lanes) {
        this.meters = meters;
        this.bindings = bindings;
        Gauge.builder("switchboard_bridge_sessions_open", openSessions)
                .description("Chat sessions held in memory (idle ones leave after bridge.sessionIdleTimeout)")
                .register(meters);
        for (int i = 0; i < lanes.length; i++) {
            ThreadPoolExecutor lane = lanes[i];
            Gauge.builder("switchboard_bridge_lane_queue_depth", lane, l -> l.getQueue().size())
                    .description("Inputs waiting for their session's lane")
                    .tag("lane", Integer.toString(i))
                    .register(meters);
        }
        commits = Timer.builder("switchboard_bridge_store_commit_seconds")
                .description("Time to commit one engine step (session and thread changes) to the store, lock wait included")
                .publishPercentileHistogram()
                .register(meters);
        bindings.forEach((name, b) -> {
            Scope scope = new Scope(b.spec().platform(), name);
            scopes.put(name, scope);
            started(scope);
            for (Outcome o : Outcome.values()) {
                finished(new TurnKey(scope, label(o)));
            }
            resends(name);
            busyWaits(name);
            cancels(name);
            credentialRejections.put(name, Counter.builder("switchboard_credential_rejections_total")
                    .description("Calls the agent answered with HTTP 401 or 403")
                    .tag("binding", name)
                    .tag("backend", b.spec().backendRef())
                    .register(meters));
        });
    }

    /** Times a commit to the store. */
    <T> T commit(Supplier<T> work) {
        long t0 = System.nanoTime();
        try {
            return work.get();
        } finally {
            commits.record(System.nanoTime() - t0, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    void turnStarted(String binding) {
        started(scope(binding)).increment();
    }

    /** @param duration from the message's acceptance, or null when not known (accepted before a restart) */
    void turnFinished(String binding, Outcome outcome, Duration duration) {
        TurnKey key = new TurnKey(scope(binding), label(outcome));
        finished(key).increment();
        if (duration != null) {
            durations.computeIfAbsent(key, k -> Timer.builder("switchboard_bridge_turn_duration_seconds")
                    .description("From a person's message accepted to its turn's final state")
                    .tags("platform", k.scope().platformTag(), "binding", k.scope().binding(), "outcome", k.outcome())
                    .publishPercentileHistogram()
                    .register(meters)).record(duration);
        }
    }

    /** One call to the agent came back; {@code failure} null means it succeeded. */
    void agentCall(String binding, Input.Call method, CallFailure failure) {
        String result = result(failure);
        calls.computeIfAbsent(new CallKey(binding, method.name().toLowerCase(Locale.ROOT), result),
                k -> Counter.builder("switchboard_bridge_agent_calls_total")
                        .description("Calls the bridge made to agents, by method and result")
                        .tags("binding", k.binding(), "method", k.method(), "result", k.result())
                        .register(meters)).increment();
        if (result.equals("busy")) {
            busyWaits(binding).increment();
        }
    }

    void resend(String binding) {
        resends(binding).increment();
    }

    void cancel(String binding) {
        cancels(binding).increment();
    }

    /** @param backend the binding's backend, for a binding gone from the configuration */
    void credentialRejection(String binding, String backend) {
        credentialRejections.computeIfAbsent(binding, b -> Counter.builder("switchboard_credential_rejections_total")
                .description("Calls the agent answered with HTTP 401 or 403")
                .tag("binding", b)
                .tag("backend", backend)
                .register(meters)).increment();
    }

    private Counter resends(String binding) {
        return counter(resends, "switchboard_bridge_resends_total", "Turns sent to the agent again (same messageId)",
                binding);
    }

    private Counter busyWaits(String binding) {
        return counter(busyWaits, "switchboard_bridge_busy_waits_total",
                "Agent calls answered busy (HTTP 429/503, or an error with Retry-After): the turn waits and tries again",
                binding);
    }

    private Counter cancels(String binding) {
        return counter(cancels, "switchboard_bridge_cancels_total", "CancelTask calls made for a turn", binding);
    }

    /** A call's result as a label: a handful of values, whatever the agent answers. */
    static String result(CallFailure failure) {
        if (failure == null) {
            return "ok";
        }
        if (failure instanceof CallFailure.HttpStatus h) {
            int s = h.status();
            if (s == 401 || s == 403) {
                return "unauthorized";
            }
            return s == 429 || s == 503 ? "busy" : "http_" + (s / 100) + "xx";
        }
        if (failure instanceof CallFailure.RpcError r) {
            return r.retryAfter() != null ? "busy" : "rpc_error";
        }
        if (failure instanceof CallFailure.Transport t) {
            return "transport_" + t.kind().name().toLowerCase(Locale.ROOT);
        }
        return "malformed";
    }

    private Scope scope(String binding) {
        // a binding unknown here (removed from the configuration) is still counted, under its own name
        return scopes.computeIfAbsent(binding, b -> {
            BindingRuntime runtime = bindings.get(b);
            return new Scope(runtime == null ? null : runtime.spec().platform(), b);
        });
    }

    private Counter started(Scope scope) {
        return started.computeIfAbsent(scope, s -> Counter.builder("switchboard_bridge_turns_started_total")
                .description("Turns accepted from people's messages")
                .tags("platform", s.platformTag(), "binding", s.binding())
                .register(meters));
    }

    private Counter finished(TurnKey key) {
        return finished.computeIfAbsent(key, k -> Counter.builder("switchboard_bridge_turns_finished_total")
                .description("Turns that reached a final state, by outcome")
                .tags("platform", k.scope().platformTag(), "binding", k.scope().binding(), "outcome", k.outcome())
                .register(meters));
    }

    private Counter counter(Map<String, Counter> into, String name, String description, String binding) {
        return into.computeIfAbsent(binding, b -> Counter.builder(name).description(description).tag("binding", b)
                .register(meters));
    }

    private static String label(Outcome o) {
        return o.name().toLowerCase(Locale.ROOT);
    }
}
