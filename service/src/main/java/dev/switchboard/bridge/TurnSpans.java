package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Turn;
import dev.switchboard.bridge.engine.TurnView;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.tracing.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bridge's spans, when tracing is on: one span per turn ({@value #TURN}), from its acceptance to its end, and a
 * CLIENT span per call made for it (the card, each send and resend, GetTask, SubscribeToTask, ListTasks,
 * CancelTask), whose context is the {@code traceparent} the agent receives. So a turn is one trace whatever happens
 * to it: the turn's trace id is stored with the turn, and its span id is derived from the turn, so after a restart
 * (or on the replica that takes the session over) the calls are children of the same turn span, which is ended and
 * sent by whichever process finishes the turn. A process that stops or loses the session sends nothing of the turn
 * span: the next one does.
 *
 * <p>Off, no span is made and each call carries the turn's trace id with a fresh span id, as before tracing existed.
 */
final class TurnSpans {

    static final String TURN = "bridge turn";
    static final AttributeKey<String> THREAD = AttributeKey.stringKey("switchboard.thread.id");
    static final AttributeKey<String> BINDING = AttributeKey.stringKey("switchboard.binding");
    static final AttributeKey<String> AGENT = AttributeKey.stringKey("switchboard.agent.id");
    static final AttributeKey<String> MESSAGE = AttributeKey.stringKey("switchboard.turn.message_id");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("switchboard.turn.outcome");
    static final AttributeKey<Long> SEND_ATTEMPTS = AttributeKey.longKey("switchboard.turn.send_attempts");
    static final AttributeKey<String> CALL = AttributeKey.stringKey("switchboard.call");
    static final AttributeKey<Long> SEND_ATTEMPT = AttributeKey.longKey("switchboard.turn.send_attempt");
    private static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
    private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
    private static final Set<TurnView> FAILED = Set.of(TurnView.FAILED, TurnView.NOT_DELIVERED);

    private static final TextMapGetter<Map<String, String>> MAP = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final Tracing tracing;

    TurnSpans(Tracing tracing) {
        this.tracing = tracing;
    }

    /**
     * What every span of a thread's turn names, and the spans of its unfinished turns this process has made calls for
     * (by message id). The thread in memory ({@link LiveThread}) holds those, so that they leave with it: dropped, not
     * ended, when the thread leaves this process (idle, or another replica drives it now).
     */
    record Where(String threadId, String binding, String agentId, Map<String, Span> open) {}

    /** A thread's open turn spans, none yet. */
    static Map<String, Span> noSpans() {
        return new ConcurrentHashMap<>();
    }

    /**
     * A call made for {@code turn} (null: a call for no turn, e.g. a lookup after the turns are gone), started now.
     */
    CallSpan call(Where where, Turn turn, Input.Call call, ProtocolVersion version) {
        String trace = turn == null ? null : trace(turn);
        if (!tracing.on()) {
            return new CallSpan(TraceContext.headers(trace), null);
        }
        Context parent = turn == null ? Context.root() : Context.root().with(turnSpan(where, turn));
        SpanBuilder b = tracing.tracer().spanBuilder(name(call, version))
                .setParent(parent)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(CALL, call.name().toLowerCase(Locale.ROOT))
                .setAttribute(THREAD, where.threadId())
                .setAttribute(BINDING, where.binding())
                .setAttribute(AGENT, where.agentId());
        if (call != Input.Call.CARD) {
            b.setAttribute(RPC_SYSTEM, "jsonrpc").setAttribute(RPC_METHOD, name(call, version));
        }
        if (call == Input.Call.SEND && turn != null) {
            b.setAttribute(SEND_ATTEMPT, (long) turn.sendAttempts());
        }
        Span span = b.startSpan();
        Map<String, String> headers = new LinkedHashMap<>();
        Tracing.propagator().inject(Context.root().with(span), headers, Map::put);
        return new CallSpan(headers, span);
    }

    /** The turn ended in {@code state}: its span ends (made now, when this process made no call for it). */
    void finished(Where where, Turn turn, TurnView state, Instant now) {
        if (!tracing.on()) {
            return;
        }
        Span span = where.open().remove(turn.messageId());
        if (span == null) {
            span = startTurnSpan(where, turn);
        }
        span.setAttribute(OUTCOME, state.name().toLowerCase(Locale.ROOT));
        span.setAttribute(SEND_ATTEMPTS, (long) turn.sendAttempts());
        if (FAILED.contains(state)) {
            span.setStatus(StatusCode.ERROR, "the turn " + state.name().toLowerCase(Locale.ROOT).replace('_', ' '));
        }
        span.end(now);
    }

    private Span turnSpan(Where where, Turn turn) {
        return where.open().computeIfAbsent(turn.messageId(), m -> startTurnSpan(where, turn));
    }

    private Span startTurnSpan(Where where, Turn turn) {
        TraceContext.Parsed t = TraceContext.parse(trace(turn));
        Context parent = Context.root();
        if (t.parentTraceparent() != null) {
            Map<String, String> caller = new LinkedHashMap<>();
            caller.put("traceparent", t.parentTraceparent());
            if (t.tracestate() != null) {
                caller.put("tracestate", t.tracestate());
            }
            parent = Tracing.propagator().extract(Context.root(), caller, MAP);
        }
        SpanBuilder b = tracing.tracer().spanBuilder(TURN)
                .setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(turn.acceptedAt())
                .setAttribute(THREAD, where.threadId())
                .setAttribute(BINDING, where.binding())
                .setAttribute(AGENT, where.agentId())
                .setAttribute(MESSAGE, turn.messageId());
        return tracing.withIds(t.traceId(), TraceContext.turnSpanId(t.traceId(), where.threadId(), turn.messageId()),
                b::startSpan);
    }

    private static String trace(Turn turn) {
        return turn.trace() != null ? turn.trace() : TraceContext.derived(turn.messageId());
    }

    private static String name(Input.Call call, ProtocolVersion version) {
        ProtocolVersion v = version == null ? ProtocolVersion.V1_0 : version;
        A2aMethod method = switch (call) {
            case CARD -> null;
            case SEND -> A2aMethod.SEND_STREAMING_MESSAGE;
            case GET_TASK -> A2aMethod.GET_TASK;
            case SUBSCRIBE -> A2aMethod.SUBSCRIBE_TO_TASK;
            case LIST_TASKS -> A2aMethod.LIST_TASKS;
            case CANCEL -> A2aMethod.CANCEL_TASK;
        };
        return method == null ? "GET agent card" : method.nameIn(v).orElse(method.name());
    }
}
