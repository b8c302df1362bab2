package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.kagent.StepCard;
import dev.switchboard.protocol.model.Message;
import java.time.Instant;

/**
 * What the driver must do after a step. Calls carry the generation their results must quote.
 * Chat effects name the chat message ({@code messageId}) they belong to.
 */
public sealed interface Effect {

    record FetchCard(long gen) implements Effect {}

    /** SendStreamingMessage with exactly this message. */
    record SendStream(long gen, Message message) implements Effect {}

    record GetTask(long gen, String taskId) implements Effect {}

    record Subscribe(long gen, String taskId) implements Effect {}

    /** ListTasks by context, one page; history is always asked for (the turn is found by messageId in it). */
    record ListTasks(long gen, String contextId, String pageToken) implements Effect {}

    record CancelTask(long gen, String taskId) implements Effect {}

    /** Cut the open stream (silence); its late events are stale anyway. */
    record CloseStream() implements Effect {}

    /**
     * Fire {@link Input.TimerFired} with this generation at {@code at}. Several timers may share a
     * generation; a driver may keep them all or only the newest. A timer that fires before its
     * phase's deadline (pushed back since, e.g. by a stream event, or fired a millisecond early) is
     * asked for again at that deadline, so no timer is ever lost to an early fire.
     */
    record ScheduleTimer(long gen, Instant at) implements Effect {}

    /** The agent's answer so far for this turn (replaces what was shown). */
    record ShowAnswer(String messageId, String text) implements Effect {}

    /** A notice in the thread, about this turn. */
    record PostNotice(String messageId, String text) implements Effect {}

    /**
     * The agent's question, shown so the next reply answers it.
     *
     * @param hitl kagent-v1: the structured request ({@code Hitl.write}): the tools to approve, or the questions and
     *     their choices; null for a text question
     */
    record AskQuestion(String messageId, String text, String hitl) implements Effect {
        public AskQuestion(String messageId, String text) {
            this(messageId, text, null);
        }
    }

    /** kagent-v1: a step of the agent's work (a tool call or its result) shown in the thread as a card. */
    record ShowStep(String messageId, StepCard step) implements Effect {}

    /** The turn's visible state changed. */
    record TurnStateChanged(String messageId, TurnView state) implements Effect {}

    /** {@code switchboard_credential_rejections_total} counts one more 401/403. */
    record CountCredentialRejection() implements Effect {}
}
