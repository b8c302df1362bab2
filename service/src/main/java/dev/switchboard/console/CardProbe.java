package dev.switchboard.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Every {@code interval}, fetches every registered agent's card (as a card request would: the egress rules, the
 * size and time bounds) and keeps the last answer: reachable with the card as fetched, or not, with why. An agent
 * whose fetch of the last round has not ended yet is not asked again. The console shows these; nothing else acts on
 * them (the gateway still calls an agent the probe found unreachable: the next call may well succeed).
 */
public final class CardProbe {

    /** The last probe of one agent; {@code card} is null when it was not reachable. */
    public record Result(boolean reachable, Instant checkedAt, String error, ObjectNode card) {}

    private final Vertx vertx;
    private final AgentRegistry registry;
    private final Function<RegisteredAgent, Future<ObjectNode>> fetch;
    private final Duration interval;
    private final Clock clock;
    private final Map<String, Result> results = new ConcurrentHashMap<>();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private long timer = -1;

    public CardProbe(Vertx vertx, AgentRegistry registry, Function<RegisteredAgent, Future<ObjectNode>> fetch,
            Duration interval, Clock clock) {
        this.vertx = vertx;
        this.registry = registry;
        this.fetch = fetch;
        this.interval = interval;
        this.clock = clock;
    }

    public CardProbe start() {
        timer = vertx.setPeriodic(0, Math.max(100, interval.toMillis()), t -> round());
        return this;
    }

    public Duration interval() {
        return interval;
    }

    public Optional<Result> last(String agentId) {
        return Optional.ofNullable(results.get(agentId));
    }

    public void close() {
        if (timer != -1) {
            vertx.cancelTimer(timer);
        }
    }

    private void round() {
        List<RegisteredAgent> agents = registry.list(List.of(), Integer.MAX_VALUE);
        Set<String> ids = ConcurrentHashMap.newKeySet();
        for (RegisteredAgent a : agents) {
            ids.add(a.id());
            if (!inFlight.add(a.id())) {
                continue;
            }
            Future<ObjectNode> f;
            try {
                f = fetch.apply(a);
            } catch (RuntimeException e) {
                f = Future.failedFuture(e);
            }
            f.onComplete(ar -> {
                inFlight.remove(a.id());
                if (registry.find(a.id()).isEmpty()) {
                    return;
                }
                results.put(a.id(), ar.succeeded()
                        ? new Result(true, clock.instant(), null, ar.result())
                        : new Result(false, clock.instant(), why(ar.cause()), null));
            });
        }
        results.keySet().retainAll(ids);
    }

    /** What went wrong, in words that carry no credential (the fetch's own messages: status, refusal, size). */
    private static String why(Throwable t) {
        String m = t == null || t.getMessage() == null ? "no answer" : t.getMessage();
        return m.length() > 200 ? m.substring(0, 200) : m;
    }
}
