package dev.switchboard.check;

import static dev.switchboard.check.Evidence.duration;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.Task;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code switchboard check}: probes one agent as the chat bridge would call it and judges each contract row it can
 * observe. Every call goes through the bridge's own client ({@link A2aAgentClient}: same endpoint rule, headers, no
 * redirects, 30 s for headers) and every rule is the engine's ({@link Contract}).
 *
 * <p>The probes, in order: the card; a first turn (no contextId); GetTask of its task; a second turn in the context
 * the agent made; ListTasks of those contexts (1.0); the first turn's messageId sent again; a third turn, whose task is
 * subscribed to and cancelled while it runs. Each waits a bounded time. Tasks the checker started and left running
 * are cancelled at the end, so the agent is left as it was found.
 *
 * <p>Blocking: run it on a plain thread (the CLI's main thread), never on a Vert.x event loop.
 */
public final class Checker {

    private final CheckRequest request;
    private final CheckLimits limits;
    private final AgentCalls calls;
    private final Verdicts verdicts = new Verdicts();
    private final StartedTasks started = new StartedTasks();
    private final EventGaps gaps;
    private final Turns turns;
    private final CardProbe card;
    private final ReplyProbes replies;
    private final SessionProbes sessions;
    private final LiveTaskProbes live;

    /** After this (3 minutes with --quick, an hour without) no new probe starts. */
    private final long budgetEnds;

    private Checker(Vertx vertx, CheckRequest request) {
        Objects.requireNonNull(vertx, "vertx");
        this.request = Objects.requireNonNull(request, "request");
        this.limits = request.limits();
        this.calls = new AgentCalls(vertx, limits);
        this.gaps = new EventGaps(limits);
        this.turns = new Turns(calls, limits, started, verdicts);
        this.card = new CardProbe(request, calls, verdicts);
        this.replies = new ReplyProbes(verdicts, turns, gaps);
        this.sessions = new SessionProbes(calls, verdicts, started, turns);
        this.live = new LiveTaskProbes(calls, limits, verdicts, started, turns);
        this.budgetEnds = System.nanoTime() + (limits.quick() ? Duration.ofMinutes(3) : Duration.ofHours(1)).toNanos();
    }

    /** True (and the rest is skipped) when the check has used up its time: a slow agent gives a bounded run. */
    private boolean outOfTime() {
        if (System.nanoTime() < budgetEnds) {
            return false;
        }
        verdicts.stop("the check ran out of time (" + (limits.quick() ? "3 minutes with --quick" : "an hour")
                + ") before it got here");
        return true;
    }

    /** Runs every probe and returns the report; never throws for anything the agent does. */
    public static CheckReport run(Vertx vertx, CheckRequest request) {
        Checker checker = new Checker(vertx, request);
        long start = System.nanoTime();
        try {
            checker.probe();
        } catch (CouldNotRun e) {
            checker.finish();
            return CheckReport.couldNotRun(request, e.getMessage(), Duration.ofNanos(System.nanoTime() - start));
        }
        checker.finish();
        AgentEndpoint endpoint = checker.calls.endpoint();
        return new CheckReport(request.url(), request.endpointUrl(), request.dialect().configName(),
                endpoint == null ? null : endpoint.version().label(), checker.results(), null,
                checker.started.cancelled(), Duration.ofNanos(System.nanoTime() - start));
    }

    /** Leaves the agent as it was found, then lets the client go. */
    private void finish() {
        new CleanUp(calls, started).run();
        calls.close();
    }

    private void probe() {
        AgentEndpoint base = new AgentEndpoint(request.endpointUrl(), ProtocolVersion.V1_0, request.callHeaders());
        AgentCard found = card.fetch(base);
        if (found == null && request.version() == null) {
            verdicts.stop("needs the card (see " + card.cardRow().id() + "); give --version to probe the methods anyway");
            return;
        }
        ProtocolVersion version = request.version() != null ? request.version() : Contract.version(found);
        AgentEndpoint endpoint = base.withVersion(version);
        if (found != null && Contract.asksHitl(request.dialect(), found)) {
            // kagent-v1 asks for kagent's human-in-the-loop extension on every call when the card lists it
            endpoint = endpoint.withHeader(Hitl.HEADER, Hitl.URI);
        }
        calls.endpoint(endpoint);
        if (found != null && !found.capabilities().streaming()) {
            verdicts.stop("the card does not declare streaming, so Switchboard never sends this agent a turn (see discovery.streaming)");
            return;
        }
        turns();
    }

    private void turns() {
        // the first turn: no contextId, as a thread's first turn
        String m1 = Turns.messageId();
        Turn t1 = turns.finish(turns.open("first turn", m1, null, true));
        if (!replies.delivered(t1)) {
            return;
        }
        replies.judgeFirstTurn(t1);
        if (t1.taskId() == null) {
            verdicts.stop("needs a turn answered with task events (see replies.task-events and replies.names-task-and-context)");
            return;
        }
        Task read1 = turns.settle(t1, true);
        replies.judgeCreatesContext(t1, read1);
        replies.judgeAnswer(t1, read1);
        if (!started.settled(t1.taskId())) {
            verdicts.stop("the first turn's task had not settled after " + duration(limits.turnLimit()) + " (see methods.get-task)");
            return;
        }

        if (outOfTime()) {
            return;
        }
        // the second turn, into the context the agent made
        Turn t2 = null;
        if (t1.contextId() != null) {
            t2 = turns.finish(turns.open("second turn", Turns.messageId(), t1.contextId(), true));
            replies.judgeSecondTurn(t1, t2);
        } else {
            verdicts.conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.SKIP, "the first turn named no context (see replies.names-task-and-context)");
        }
        if (outOfTime()) {
            return;
        }
        sessions.judgeSessions(t1, t2);

        if (outOfTime()) {
            return;
        }
        // the first turn's messageId again, without a context: what the bridge does after an unknown outcome
        sessions.repeat(t1);
        if (outOfTime()) {
            return;
        }
        // a third turn, subscribed to and cancelled while it runs
        live.run(t1.taskId());
    }

    /** The rows judged from the whole run, then every row in order. */
    private List<RowResult> results() {
        calls.judgeTransport(verdicts, request.endpointUrl());
        turns.judgeBusy();
        gaps.judge(verdicts);
        return verdicts.results(request.kagent());
    }
}
