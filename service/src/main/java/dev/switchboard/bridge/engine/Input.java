package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;

/**
 * Everything that can happen to a session: a person writes, the service restarts, or a {@link Result}
 * of a call or timer arrives.
 */
public sealed interface Input {

    /**
     * The result of a call or timer. It carries the generation of the effect that caused it; a result
     * of an older generation is stale (its call was superseded) and is ignored.
     */
    sealed interface Result extends Input {
        long gen();
    }

    /**
     * A person wrote in the thread. A repeated {@code messageId} is the same message.
     *
     * @param trace the trace context the turn's calls carry (opaque here; null: none)
     * @param structured kagent-v1: the person's structured answer to the question shown (a decision on an approval,
     *     or answers to ask-user questions); null for a typed message
     */
    record ChatMessage(String messageId, String text, Actor actor, String trace, Hitl.Answer structured) implements Input {
        public ChatMessage(String messageId, String text, Actor actor, String trace) {
            this(messageId, text, actor, trace, null);
        }

        public ChatMessage(String messageId, String text, Actor actor) {
            this(messageId, text, actor, null);
        }
    }

    /** The service restarted: every unfinished turn is recovered as the seed says. */
    record Restarted() implements Input {}

    /**
     * The thread's Binding was removed while the service runs (Kubernetes watch mode): there is no agent to call any
     * more, so every unfinished turn ends now with a notice saying why, instead of retrying for its whole window.
     */
    record BindingRemoved() implements Input {}

    /** The card was fetched and read. */
    record CardFetched(long gen, AgentCard card) implements Result {}

    record StreamEventReceived(long gen, StreamEvent event) implements Result {}

    /** The agent closed the stream normally. */
    record StreamEnded(long gen) implements Result {}

    /** A call failed; {@code afterEvents} when a stream had delivered events first. */
    record CallFailed(long gen, Call call, CallFailure failure, boolean afterEvents) implements Result {}

    record TaskRead(long gen, Task task) implements Result {}

    record TasksListed(long gen, ListTasksResult page) implements Result {}

    record CancelAccepted(long gen, Task task) implements Result {}

    record TimerFired(long gen) implements Result {}

    /** Which call failed. */
    enum Call {
        CARD, SEND, GET_TASK, SUBSCRIBE, LIST_TASKS, CANCEL
    }
}
