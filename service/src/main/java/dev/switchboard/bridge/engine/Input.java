package dev.switchboard.bridge.engine;

import dev.switchboard.client.CallFailure;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;

/**
 * Everything that can happen to a session. Results of calls and timers carry the generation
 * ({@code gen}) of the effect that caused them; a result of an older generation is stale (its call
 * was superseded) and is ignored.
 */
public sealed interface Input {

    /** A person wrote in the thread. A repeated {@code messageId} is the same message. */
    record ChatMessage(String messageId, String text, Actor actor) implements Input {}

    /** The service restarted: every unfinished turn is recovered as the seed says. */
    record Restarted() implements Input {}

    /** The card was fetched and read. */
    record CardFetched(long gen, AgentCard card) implements Input {}

    record StreamEventReceived(long gen, StreamEvent event) implements Input {}

    /** The agent closed the stream normally. */
    record StreamEnded(long gen) implements Input {}

    /** A call failed; {@code afterEvents} when a stream had delivered events first. */
    record CallFailed(long gen, Call call, CallFailure failure, boolean afterEvents) implements Input {}

    record TaskRead(long gen, Task task) implements Input {}

    record TasksListed(long gen, ListTasksResult page) implements Input {}

    record CancelAccepted(long gen, Task task) implements Input {}

    record TimerFired(long gen) implements Input {}

    /** Which call failed. */
    enum Call {
        CARD, SEND, GET_TASK, SUBSCRIBE, LIST_TASKS, CANCEL
    }
}
