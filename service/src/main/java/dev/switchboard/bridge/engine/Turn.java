package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.model.TaskState;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One chat message carried to the agent, and the task it became. Immutable: a step replaces a turn
 * with a changed copy. The state is grouped by what it is about, one small record each, so a rule
 * changes only the part it owns ({@code turn.withRetries(turn.retries().withRetryAttempt(0))}).
 * {@code view} is null until a new turn's first view is reported. {@code trace} is the W3C trace context the
 * driver gave the chat message (null on turns stored before it existed): every call of the turn continues it.
 */
public record Turn(
        String messageId,
        String text,
        Actor actor,
        Instant acceptedAt,
        Phase phase,
        TurnView view,
        Outcome outcome,
        Wait waiting,
        Progress progress,
        Retries retries,
        Following following,
        Cancelling cancelling,
        Question question,
        String trace) {

    /** What a WAITING turn does when its timer fires. */
    public enum Next {
        FETCH_CARD, SEND, LOOKUP, GET_TASK, CANCEL
    }

    /** A turn just accepted: queued, nothing sent. */
    static Turn accepted(String messageId, String text, Actor actor, Instant acceptedAt) {
        return accepted(messageId, text, actor, acceptedAt, null);
    }

    /** @param trace the trace context every call of the turn continues (opaque to the engine; null: none given) */
    static Turn accepted(String messageId, String text, Actor actor, Instant acceptedAt, String trace) {
        return new Turn(messageId, text, actor, acceptedAt, Phase.QUEUED, null, null, Wait.NONE, Progress.NONE,
                Retries.NONE, Following.NONE, Cancelling.NONE, Question.NONE, trace);
    }

    public String taskId() {
        return progress.taskId();
    }

    public int sendAttempts() {
        return retries.sendAttempts();
    }

    public Instant waitUntil() {
        return waiting.until();
    }

    public List<String> answerMessageIds() {
        return question.answerMessageIds();
    }

    /** The answer so far: every artifact's text, in order. */
    public String answer() {
        return String.join("", progress.artifacts().values());
    }

    /** What a {@link Phase#WAITING} turn does when its timer fires, and when. */
    public record Wait(Next next, Instant until) {
        static final Wait NONE = new Wait(null, null);
    }

    /**
     * The task the turn became, as last seen: its state and the answer so far.
     *
     * @param artifacts the artifact texts in arrival order, by artifactId; the answer is their concatenation
     * @param answerCut the artifacts were cut at the answer limit: the thread shows a note saying so
     */
    public record Progress(
            String taskId,
            TaskState lastState,
            Instant lastStatusTimestamp,
            Map<String, String> artifacts,
            boolean answerCut) {
        public Progress {
            artifacts = Collections.unmodifiableMap(new LinkedHashMap<>(artifacts));
        }

        static final Progress NONE = new Progress(null, null, null, Map.of(), false);

        Progress withTaskId(String taskId) {
            return new Progress(taskId, lastState, lastStatusTimestamp, artifacts, answerCut);
        }

        Progress withLastState(TaskState lastState) {
            return new Progress(taskId, lastState, lastStatusTimestamp, artifacts, answerCut);
        }

        Progress withLastStatusTimestamp(Instant lastStatusTimestamp) {
            return new Progress(taskId, lastState, lastStatusTimestamp, artifacts, answerCut);
        }

        Progress withArtifacts(Map<String, String> artifacts) {
            return new Progress(taskId, lastState, lastStatusTimestamp, artifacts, answerCut);
        }

        Progress withAnswerCut(boolean answerCut) {
            return new Progress(taskId, lastState, lastStatusTimestamp, artifacts, answerCut);
        }
    }

    /** How often and since when the turn has been retried: the 15-minute window and the busy notice. */
    public record Retries(
            int sendAttempts,
            int retryAttempt,
            Instant troubleSince,
            Instant busySince,
            boolean busyNoticed) {
        static final Retries NONE = new Retries(0, 0, null, null, false);

        Retries withSendAttempts(int sendAttempts) {
            return new Retries(sendAttempts, retryAttempt, troubleSince, busySince, busyNoticed);
        }

        Retries withRetryAttempt(int retryAttempt) {
            return new Retries(sendAttempts, retryAttempt, troubleSince, busySince, busyNoticed);
        }

        Retries withTroubleSince(Instant troubleSince) {
            return new Retries(sendAttempts, retryAttempt, troubleSince, busySince, busyNoticed);
        }

        Retries withBusySince(Instant busySince) {
            return new Retries(sendAttempts, retryAttempt, troubleSince, busySince, busyNoticed);
        }

        Retries withBusyNoticed(boolean busyNoticed) {
            return new Retries(sendAttempts, retryAttempt, troubleSince, busySince, busyNoticed);
        }
    }

    /**
     * The open stream, or how the task is followed without one.
     *
     * @param subscribed the open stream is a SubscribeToTask (not a send)
     * @param subscribeUnsupported the agent answered SubscribeToTask with method-not-found: the task is polled instead
     * @param silenceDeadline the open stream is cut when no event arrives by then (5 min after the last)
     * @param lastEventWasTask the last event was a full Task (not an update)
     */
    public record Following(
            boolean subscribed,
            boolean subscribeUnsupported,
            Instant silenceDeadline,
            boolean lastEventWasTask,
            Instant streamLostAt,
            Instant lastSignOfLife,
            int pollAttempt,
            int listPages) {
        static final Following NONE = new Following(false, false, null, false, null, null, 0, 0);

        Following withSubscribed(boolean subscribed) {
            return new Following(subscribed, subscribeUnsupported, silenceDeadline, lastEventWasTask, streamLostAt,
                    lastSignOfLife, pollAttempt, listPages);
        }

        Following withSubscribeUnsupported(boolean subscribeUnsupported) {
            return new Following(subscribed, subscribeUnsupported, silenceDeadline, lastEventWasTask, streamLostAt,
                    lastSignOfLife, pollAttempt, listPages);
        }

        Following withSilenceDeadline(Instant silenceDeadline) {
            return new Following(subscribed, subscribeUnsupported, silenceDeadline, lastEventWasTask, streamLostAt,
                    lastSignOfLife, pollAttempt, listPages);
        }

        Following withLastEventWasTask(boolean lastEventWasTask) {
            return new Following(subscribed, subscribeUnsupported, silenceDeadline, lastEventWasTask, streamLostAt,
                    lastSignOfLife, pollAttempt, listPages);
        }

        Following withStreamLostAt(Instant streamLostAt) {
            return new Following(subscribed, subscribeUnsupported, silenceDeadline, lastEventWasTask, streamLostAt,
                    lastSignOfLife, pollAttempt, listPages);
        }

        Following withLastSignOfLife(Instant lastSignOfLife) {
            return new Following(subscribed, subscribeUnsupported, silenceDeadline, lastEventWasTask, streamLostAt,
                    lastSignOfLife, pollAttempt, listPages);
        }

        Following withPollAttempt(int pollAttempt) {
            return new Following(subscribed, subscribeUnsupported, silenceDeadline, lastEventWasTask, streamLostAt,
                    lastSignOfLife, pollAttempt, listPages);
        }

        Following withListPages(int listPages) {
            return new Following(subscribed, subscribeUnsupported, silenceDeadline, lastEventWasTask, streamLostAt,
                    lastSignOfLife, pollAttempt, listPages);
        }
    }

    /** A cancel in progress: how often it was tried, and how the turn ends once it is done. */
    public record Cancelling(int attempts, Outcome outcome) {
        static final Cancelling NONE = new Cancelling(0, null);

        Cancelling withAttempts(int attempts) {
            return new Cancelling(attempts, outcome);
        }

        Cancelling withOutcome(Outcome outcome) {
            return new Cancelling(attempts, outcome);
        }
    }

    /**
     * The agent's question: its deadline, and the typed answer being carried to the agent.
     *
     * @param answerMessageIds every chat message that answered a question of this turn
     * @param answerPending a typed answer the agent has not taken yet (the task still asks the question)
     * @param answerSent the pending answer has been sent at least once
     * @param hitlRequest kagent-v1: the human-in-the-loop request the question showed, as {@code Hitl.write} keeps it
     * @param hitlAnswer kagent-v1: the structured answer being carried to the agent
     */
    public record Question(
            Instant deadline,
            String answerMessageId,
            String answerText,
            Actor answerActor,
            List<String> answerMessageIds,
            boolean answerPending,
            boolean answerSent,
            String hitlRequest,
            String hitlAnswer) {
        public Question {
            answerMessageIds = List.copyOf(answerMessageIds);
        }

        /** A question without kagent's structured request (a2a, or kagent-v1 without the extension). */
        public Question(Instant deadline, String answerMessageId, String answerText, Actor answerActor,
                List<String> answerMessageIds, boolean answerPending, boolean answerSent) {
            this(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending, answerSent, null, null);
        }

        static final Question NONE = new Question(null, null, null, null, List.of(), false, false);

        Question withDeadline(Instant deadline) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }

        Question withAnswerMessageId(String answerMessageId) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }

        Question withAnswerText(String answerText) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }

        Question withAnswerActor(Actor answerActor) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }

        Question withAnswerMessageIds(List<String> answerMessageIds) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }

        Question withAnswerPending(boolean answerPending) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }

        Question withAnswerSent(boolean answerSent) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }

        /** kagent's request as asked ({@code Hitl.write}); null for a text question. */
        Question withHitlRequest(String hitlRequest) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }

        /** The structured answer being carried to the agent ({@code Hitl.write(Answer)}). */
        Question withHitlAnswer(String hitlAnswer) {
            return new Question(deadline, answerMessageId, answerText, answerActor, answerMessageIds, answerPending,
                    answerSent, hitlRequest, hitlAnswer);
        }
    }

    Turn withPhase(Phase phase) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }

    Turn withView(TurnView view) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }

    Turn withOutcome(Outcome outcome) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }

    Turn withWaiting(Wait waiting) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }

    Turn withProgress(Progress progress) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }

    Turn withRetries(Retries retries) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }

    Turn withFollowing(Following following) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }

    Turn withCancelling(Cancelling cancelling) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }

    Turn withQuestion(Question question) {
        return new Turn(messageId, text, actor, acceptedAt, phase, view, outcome, waiting, progress, retries,
                following, cancelling, question, trace);
    }
}
