package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.tracing.Tracing;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What follows a person's 👍/👎 on an answer, once the chat platform has recorded it: a span in the turn's trace (a
 * child of the turn's span, found from the turn's message id alone: see {@link TraceContext#of(String, String, String)};
 * a turn that continued a caller's trace keeps that trace, and its feedback span then starts one of its own), and,
 * when the Binding opts in ({@code feedback.sendToAgent}), a message to the agent saying so.
 *
 * <p>That message is the Binding's identity speaking, as every call of the bridge is; the person is named only in the
 * actor metadata. It carries no contextId: a context runs one task at a time (B7) and the thread may have moved on to
 * another turn; the rated turn's contextId and message id are in its {@value #METADATA} metadata instead. Its reply
 * is not shown. It is sent once, best effort: the feedback itself is already stored. A person changing their mind
 * back and forth sends at most {@link #MAX_SENDS} messages per answer: 👍/👎 cannot be made a way to call the agent.
 */
public final class AnswerFeedback {

    private static final Logger LOG = LoggerFactory.getLogger(AnswerFeedback.class);
    public static final String METADATA = "switchboard.dev/feedback";
    static final String SPAN = "bridge feedback";
    static final AttributeKey<String> VALUE = AttributeKey.stringKey("switchboard.feedback.value");
    static final int MAX_SENDS = 3;
    private static final int MAX_TRACKED = 10_000;

    private final Map<String, BindingRuntime> bindings;
    private final ChatStore store;
    private final A2aAgentClient client;
    private final Tracing tracing;
    private final MeterRegistry meters;
    /** messages sent per (turn, person), so that toggling cannot call the agent without end; bounded */
    private final Map<String, Integer> sent = new java.util.concurrent.ConcurrentHashMap<>();

    AnswerFeedback(Map<String, BindingRuntime> bindings, ChatStore store, A2aAgentClient client, Tracing tracing,
            MeterRegistry meters) {
        this.bindings = bindings;
        this.store = store;
        this.client = client;
        this.tracing = tracing;
        this.meters = meters;
    }

    /**
     * {@code userId} rated the answer of turn {@code turnMessageId} in {@code thread}: {@code value} is {@code good} or
     * {@code bad}. Called once per change of a person's rating; never blocks on the agent.
     */
    public void given(ChatThread thread, String turnMessageId, String userId, String value) {
        BindingRuntime binding = bindings.get(thread.binding());
        String agentId = binding == null ? "" : binding.spec().backendRef();
        String trace = TraceContext.of(null, null, turnMessageId);
        Map<String, String> headers = TraceContext.headers(trace);
        if (tracing.on()) {
            Span span = span(thread, turnMessageId, agentId, value, TraceContext.parse(trace).traceId());
            headers = new LinkedHashMap<>();
            Tracing.propagator().inject(Context.root().with(span), headers, Map::put);
            span.end();
        }
        if (binding != null && binding.spec().feedbackToAgent()) {
            if (sent.size() > MAX_TRACKED) {
                sent.clear();
            }
            if (sent.merge(turnMessageId + "\n" + userId, 1, Integer::sum) > MAX_SENDS) {
                count(thread.binding(), "not_sent");
                return;
            }
            send(thread, binding, turnMessageId, userId, value, headers);
        }
    }

    private Span span(ChatThread thread, String turnMessageId, String agentId, String value, String traceId) {
        SpanContext turn = SpanContext.createFromRemoteParent(traceId,
                TraceContext.turnSpanId(traceId, thread.threadId(), turnMessageId), TraceFlags.getSampled(),
                TraceState.getDefault());
        return tracing.tracer().spanBuilder(SPAN)
                .setParent(Context.root().with(Span.wrap(turn)))
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(TurnSpans.THREAD, thread.threadId())
                .setAttribute(TurnSpans.BINDING, thread.binding())
                .setAttribute(TurnSpans.AGENT, agentId)
                .setAttribute(TurnSpans.MESSAGE, turnMessageId)
                .setAttribute(VALUE, value)
                .startSpan();
    }

    private void send(ChatThread thread, BindingRuntime binding, String turnMessageId, String userId, String value,
            Map<String, String> traceHeaders) {
        Optional<Session> session = store.session(thread.threadId());
        ProtocolVersion version = session.map(Session::agentVersion).orElse(null);
        Optional<AgentEndpoint> endpoint = binding.endpoint(version, traceHeaders);
        if (version == null || endpoint.isEmpty()) {
            // no turn of the thread ever reached the agent's card: there is nothing the agent could relate it to
            count(thread.binding(), "not_sent");
            return;
        }
        Map<String, Object> feedback = new LinkedHashMap<>();
        feedback.put("value", value);
        feedback.put("messageId", turnMessageId);
        if (session.get().contextId() != null) {
            feedback.put("contextId", session.get().contextId());
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put(METADATA, feedback);
        metadata.put(Contract.ACTOR_KEY, Map.of("id", userId));
        String text = ("good".equals(value) ? "👍 The person found your answer helpful" : "👎 The person found your answer "
                + "unhelpful") + " (feedback on message " + turnMessageId + ").";
        String messageId = "feedback-" + UUID.nameUUIDFromBytes((turnMessageId + "\n" + userId + "\n" + value + "\n"
                + System.nanoTime()).getBytes(StandardCharsets.UTF_8));
        Message message = Message.userText(messageId, text, null, null, metadata);
        client.sendMessage(endpoint.get(), SendMessageParams.of(message)).onComplete(ar -> {
            if (ar.succeeded()) {
                count(thread.binding(), "sent");
            } else {
                count(thread.binding(), "failed");
                LOG.info("feedback on {} could not be sent to {}: {}", turnMessageId, binding.spec().backendRef(),
                        ar.cause().toString());
            }
        });
    }

    private void count(String binding, String outcome) {
        Counter.builder("switchboard_bridge_feedback_sent_total")
                .description("Feedback on answers sent on to agents (Binding feedback.sendToAgent)")
                .tag("binding", binding).tag("outcome", outcome).register(meters).increment();
    }
}
