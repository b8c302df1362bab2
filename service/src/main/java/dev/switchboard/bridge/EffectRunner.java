package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.client.CallException;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.client.StreamHandle;
import dev.switchboard.client.StreamListener;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs a committed step's effects that reach outside the store: the calls to the agent (card, GetTask, ListTasks,
 * CancelTask), its streams (send, subscribe), and the timers. Each result comes back through {@link Results} as an
 * input for the thread's lane. The effects that only show something (answers, notices, questions, turn states) were
 * committed with the step and are not run here.
 */
final class EffectRunner {

    private static final int LIST_PAGE_SIZE = 100;
    /** ListTasks must return history, or every turn looks absent; this asks for plenty of it. */
    private static final int LIST_HISTORY = 1000;

    /** Where the results go: the driver, which feeds each to the thread's session on its lane. */
    interface Results {
        void submit(String threadId, Input input);

        /** A call's result, counted for the thread's Binding (when the thread is still in memory) then submitted. */
        void callResult(String threadId, Input.Call call, CallFailure failure, Input input);
    }

    private final Vertx vertx;
    private final A2aAgentClient client;
    private final Scheduler scheduler;
    private final Map<String, BindingRuntime> bindings;
    private final TurnSpans spans;
    private final BridgeMetrics metrics;
    private final Results results;

    EffectRunner(Vertx vertx, A2aAgentClient client, Scheduler scheduler, Map<String, BindingRuntime> bindings,
            TurnSpans spans, BridgeMetrics metrics, Results results) {
        this.vertx = vertx;
        this.client = client;
        this.scheduler = scheduler;
        this.bindings = bindings;
        this.spans = spans;
        this.metrics = metrics;
        this.results = results;
    }

    /** On the thread's lane, after the step was committed; {@code session} is the step's session. */
    void run(LiveThread live, Session session, Effect e) {
        String threadId = live.id();
        if (e instanceof Effect.FetchCard f) {
            fetchCard(live, session, f.gen());
        } else if (e instanceof Effect.SendStream s) {
            stream(live, s.gen(), Input.Call.SEND, (ep, listener) -> client.sendStreaming(ep,
                    SendMessageParams.of(s.message()), listener), session);
        } else if (e instanceof Effect.Subscribe s) {
            stream(live, s.gen(), Input.Call.SUBSCRIBE,
                    (ep, listener) -> client.subscribe(ep, s.taskId(), listener), session);
        } else if (e instanceof Effect.GetTask g) {
            call(live, g.gen(), Input.Call.GET_TASK, session,
                    ep -> client.getTask(ep, g.taskId(), null).map(task -> new Input.TaskRead(g.gen(), task)));
        } else if (e instanceof Effect.ListTasks l) {
            ListTasksParams params = new ListTasksParams(l.contextId(), null, LIST_PAGE_SIZE, l.pageToken(), LIST_HISTORY,
                    null, true, null);
            call(live, l.gen(), Input.Call.LIST_TASKS, session,
                    ep -> client.listTasks(ep, params).map(page -> new Input.TasksListed(l.gen(), page)));
        } else if (e instanceof Effect.CancelTask c) {
            call(live, c.gen(), Input.Call.CANCEL, session,
                    ep -> client.cancelTask(ep, c.taskId()).map(task -> new Input.CancelAccepted(c.gen(), task)));
        } else if (e instanceof Effect.CloseStream) {
            live.closeStream();
        } else if (e instanceof Effect.ScheduleTimer s) {
            // rounded up: a timer that fires a fraction of a millisecond early finds its deadline not yet due and
            // is set again, a step and a session write for nothing
            long nanos = Duration.between(scheduler.clock().instant(), s.at()).toNanos();
            long delay = Math.max(1, (nanos + 999_999) / 1_000_000);
            LiveThread.PendingTimer pending = live.timerSet();
            pending.set(scheduler.schedule(Duration.ofMillis(delay), () -> {
                live.timerFired(pending);
                results.submit(threadId, new Input.TimerFired(s.gen()));
            }));
        } else if (e instanceof Effect.CountCredentialRejection) {
            BindingRuntime binding = bindings.get(live.thread().binding());
            metrics.credentialRejection(live.thread().binding(), binding == null ? "unknown" : binding.spec().backendRef());
        }
        // ShowAnswer, PostNotice, AskQuestion, TurnStateChanged were committed with the step
    }

    private void fetchCard(LiveThread live, Session session, long gen) {
        String threadId = live.id();
        BindingRuntime binding = bindings.get(live.thread().binding());
        if (binding == null || binding.backend().isEmpty()) {
            results.submit(threadId, callFailed(gen, Input.Call.CARD, noBackend(), false));
            return;
        }
        live.callStarted();
        // a span only for a fetch that is made: the Binding's threads share one card
        binding.card(() -> {
            CallSpan span = spans.call(where(live), session.active().orElse(null), Input.Call.CARD,
                    session.agentVersion());
            AgentEndpoint ep = endpoint(live, session, span);
            if (ep == null) {
                span.end(noBackend());
                return Future.failedFuture(new CallException(noBackend()));
            }
            return client.fetchCard(ep).onComplete(ar -> span.end(ar.succeeded() ? null : failureOf(ar.cause())));
        }).onComplete(ar -> {
            live.callEnded();
            CallFailure failure = ar.succeeded() ? null : failureOf(ar.cause());
            results.callResult(threadId, Input.Call.CARD, failure, failure == null
                    ? new Input.CardFetched(gen, ar.result())
                    : callFailed(gen, Input.Call.CARD, failure, false));
        });
    }

    private interface StreamStarter {
        StreamHandle start(AgentEndpoint endpoint, StreamListener listener);
    }

    private void stream(LiveThread live, long gen, Input.Call call, StreamStarter starter, Session session) {
        String threadId = live.id();
        live.closeStream();
        CallSpan span = spans.call(where(live), session.active().orElse(null), call, session.agentVersion());
        AgentEndpoint ep = endpoint(live, session, span);
        if (ep == null) {
            span.end(noBackend());
            results.submit(threadId, callFailed(gen, call, noBackend(), false));
            return;
        }
        OpenStream open = new OpenStream(span);
        live.streamOpened(open);
        StreamListener listener = new StreamListener() {
            @Override
            public void onEvent(StreamEvent event) {
                results.submit(threadId, new Input.StreamEventReceived(gen, event));
            }

            @Override
            public void onEnd() {
                span.end(null);
                live.streamGone(open);
                results.callResult(threadId, call, null, new Input.StreamEnded(gen));
            }

            @Override
            public void onFailure(CallFailure failure, boolean afterEvents) {
                span.end(failure);
                live.streamGone(open);
                results.callResult(threadId, call, failure, callFailed(gen, call, failure, afterEvents));
            }
        };
        // the client must be driven from a Vert.x context; its callbacks then stay on it
        vertx.runOnContext(v -> {
            try {
                open.started(starter.start(ep, listener));
            } catch (RuntimeException e) {
                span.end(failureOf(e));
                live.streamGone(open);
                results.submit(threadId, callFailed(gen, call, failureOf(e), false));
            }
        });
    }

    private void call(LiveThread live, long gen, Input.Call call, Session session,
            Function<AgentEndpoint, Future<? extends Input>> invoke) {
        String threadId = live.id();
        CallSpan span = spans.call(where(live), session.active().orElse(null), call, session.agentVersion());
        AgentEndpoint ep = endpoint(live, session, span);
        if (ep == null) {
            span.end(noBackend());
            results.submit(threadId, callFailed(gen, call, noBackend(), false));
            return;
        }
        live.callStarted();
        vertx.runOnContext(v -> invoke.apply(ep).onComplete(ar -> {
            live.callEnded();
            CallFailure failure = ar.succeeded() ? null : failureOf(ar.cause());
            span.end(failure);
            results.callResult(threadId, call, failure, failure == null ? ar.result()
                    : callFailed(gen, call, failure, false));
        }));
    }

    /** The endpoint for one call, carrying the call's trace context (every call is made for the active turn). */
    private AgentEndpoint endpoint(LiveThread live, Session session, CallSpan span) {
        BindingRuntime binding = bindings.get(live.thread().binding());
        AgentEndpoint ep = binding == null ? null : binding.endpoint(session.agentVersion(), span.headers()).orElse(null);
        // kagent-v1 asks for kagent's human-in-the-loop extension on every call when the card lists it
        return ep != null && session.hitl() ? ep.withHeader(Hitl.HEADER, Hitl.URI) : ep;
    }

    /** What the spans of a thread's turns name: the thread, its Binding, the Binding's backend. */
    TurnSpans.Where where(LiveThread live) {
        String binding = live.thread().binding();
        BindingRuntime runtime = bindings.get(binding);
        return new TurnSpans.Where(live.id(), binding, runtime == null ? "unknown" : runtime.spec().backendRef(),
                live.openSpans());
    }

    /** A failed call as the engine's input: the client's CallFailure goes in as it is (one type for both). */
    private static Input.CallFailed callFailed(long gen, Input.Call call, CallFailure failure, boolean afterEvents) {
        return new Input.CallFailed(gen, call, failure, afterEvents);
    }

    private static CallFailure noBackend() {
        return new CallFailure.Transport(CallFailure.TransportKind.CONNECT, "the binding's backend is not registered");
    }

    private static CallFailure failureOf(Throwable cause) {
        if (cause instanceof CallException ce) {
            return ce.failure();
        }
        return new CallFailure.Malformed(cause == null ? "unknown failure" : cause.toString());
    }
}
