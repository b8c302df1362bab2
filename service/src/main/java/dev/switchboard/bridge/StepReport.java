package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Outcome;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.engine.Transition;
import dev.switchboard.bridge.engine.TurnView;
import dev.switchboard.log.LogContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What a committed step tells the bridge's meters, traces and log: turns finished, resends, cancels. */
record StepReport(BridgeMetrics metrics, TurnSpans spans) {

    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);

    private static final Map<TurnView, Outcome> FINISHED = Map.of(TurnView.COMPLETED, Outcome.COMPLETED,
            TurnView.FAILED, Outcome.FAILED, TurnView.REJECTED, Outcome.REJECTED, TurnView.CANCELED, Outcome.CANCELED,
            TurnView.NOT_DELIVERED, Outcome.NOT_DELIVERED);

    /** {@code before}: the session the step was taken from; {@code ids}: the thread's ids for a log line. */
    void report(LiveThread lt, TurnSpans.Where where, Session before, Transition t, Instant now,
            Supplier<LogContext> ids) {
        String binding = lt.thread().binding();
        for (Effect e : t.effects()) {
            if (e instanceof Effect.TurnStateChanged c && FINISHED.containsKey(c.state())) {
                Instant start = lt.turnFinished(c.messageId());
                metrics.turnFinished(binding, FINISHED.get(c.state()), start == null ? null : Duration.between(start, now));
                before.turn(c.messageId()).or(() -> t.session().turn(c.messageId()))
                        .ifPresent(turn -> spans.finished(where, turn, c.state(), now));
                if (c.state() != TurnView.COMPLETED) {
                    // a turn that did not complete is what an operator looks for: which binding, agent, thread, turn
                    try (LogContext context = ids.get().and(LogContext.TURN, c.messageId())) {
                        LOG.info("bridge: turn {} of thread {} ended {}", c.messageId(), lt.id(),
                                c.state().name().toLowerCase(Locale.ROOT).replace('_', ' '));
                    }
                }
            } else if (e instanceof Effect.SendStream s) {
                t.session().turn(s.message().messageId()).filter(turn -> turn.sendAttempts() > 1)
                        .ifPresent(turn -> metrics.resend(binding));
            } else if (e instanceof Effect.CancelTask) {
                metrics.cancel(binding);
            }
        }
    }
}
