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
 * While the console is in use, every {@code interval}, fetches every registered agent's card (as a card request would: the egress rules, the
 * size and time bounds) and keeps the last answer: reachable with the card as fetched, or not, with why. An agent
 * whose fetch of the last round has not ended yet is not asked again. The console shows these; nothing else acts on
 * them (the gateway still calls an agent the probe found unreachable: the next call may well succeed).
 *
 * <p>It runs only while someone looks: the console's API {@linkplain #touch() touches} it, the first touch starts a
 * round at once, and rounds stop once nobody touched it for {@link #idleLimit()} (the page asks every few seconds
 * while it is open). A server nobody watches sends its agents no card requests of the console's.
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
    private volatile Instant lastTouch = Instant.EPOCH;
    private boolean closed;

    public CardProbe(Vertx vertx, AgentRegistry registry, Function<RegisteredAgent, Future<ObjectNode>> fetch,
            Duration interval, Clock clock) {
        this.vertx = vertx;
        this.registry = registry;
        this.fetch = fetch;
        this.interval = interval;
        this.clock = clock;
    }

    /** Someone is looking: probe from now on (at once, when the probe was not running), until idle again. */
    public synchronized void touch() {
        lastTouch = clock.instant();
        if (timer == -1 && !closed) {
            timer = vertx.setPeriodic(0, Math.max(100, interval.toMillis()), t -> round());
        }
    }

    /** How long the probe runs after the last touch: three intervals, and two minutes at least. */
    public Duration idleLimit() {
        Duration three = interval.multipliedBy(3);
        return three.compareTo(Duration.ofMinutes(2)) > 0 ? three : Duration.ofMinutes(2);
    }

    public Duration interval() {
        return interval;
    }

    public Optional<Result> last(String agentId) {
        return Optional.ofNullable(results.get(agentId));
    }

    /** The app stops: no round from now on, whatever touches it. */
    public synchronized void close() {
        closed = true;
        stop();
    }

    private synchronized void stop() {
        if (timer != -1) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }

    private void round() {
        synchronized (this) {
            if (Duration.between(lastTouch, clock.instant()).compareTo(idleLimit()) > 0) {
                stop();
                return;
            }
        }
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
