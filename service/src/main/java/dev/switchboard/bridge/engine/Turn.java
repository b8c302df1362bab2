package dev.switchboard.bridge.engine;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import dev.switchboard.protocol.model.TaskState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One chat message carried to the agent, and the task it became. Mutable for the engine's
 * convenience, but only ever changed on a copy inside {@link Engine#step}; stored as JSON.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class Turn {

    /** What a WAITING turn does when its timer fires. */
    public enum Next {
        FETCH_CARD, SEND, LOOKUP, GET_TASK, CANCEL
    }

    String messageId;
    String text;
    Actor actor;
    Instant acceptedAt;

    Phase phase = Phase.QUEUED;
    TurnView view = TurnView.QUEUED;
    Outcome outcome;
    Next next;
    Instant waitUntil;

    String taskId;
    TaskState lastState;
    Instant lastStatusTimestamp;
    /** the artifact texts in arrival order; the answer is their concatenation */
    LinkedHashMap<String, String> artifacts = new LinkedHashMap<>();
    /** the artifacts were cut at the answer limit: the thread shows a note saying so */
    boolean answerCut;

    int sendAttempts;
    int retryAttempt;
    /** start of the current 15-minute window (card, not sent, unknown outcome) */
    Instant troubleSince;
    Instant busySince;
    boolean busyNoticed;

    /** the open stream is a SubscribeToTask (not a send) */
    boolean subscribed;
    /** the agent answered SubscribeToTask with method-not-found: the task is polled instead */
    boolean subscribeUnsupported;
    /** the open stream is cut when no event arrives by then (5 min after the last) */
    Instant silenceDeadline;
    /** the last event was a full Task (not an update) */
    boolean lastEventWasTask;
    Instant streamLostAt;
    Instant lastSignOfLife;
    int pollAttempt;

    int listPages;

    int cancelAttempts;
    Outcome cancelOutcome;

    Instant questionDeadline;
    /** the answer being sent: its own messageId and text */
    String answerMessageId;
    String answerText;
    Actor answerActor;
    List<String> answerMessageIds = new ArrayList<>();
    /** a typed answer the agent has not taken yet (the task still asks the question) */
    boolean answerPending;
    /** the pending answer has been sent at least once */
    boolean answerSent;

    Turn() {}

    Turn(String messageId, String text, Actor actor, Instant acceptedAt) {
        this.messageId = messageId;
        this.text = text;
        this.actor = actor;
        this.acceptedAt = acceptedAt;
        this.view = null; // a new turn's first view is reported
    }

    Turn copy() {
        Turn t = new Turn(messageId, text, actor, acceptedAt);
        t.phase = phase;
        t.view = view;
        t.outcome = outcome;
        t.next = next;
        t.waitUntil = waitUntil;
        t.taskId = taskId;
        t.lastState = lastState;
        t.lastStatusTimestamp = lastStatusTimestamp;
        t.artifacts = new LinkedHashMap<>(artifacts);
        t.answerCut = answerCut;
        t.sendAttempts = sendAttempts;
        t.retryAttempt = retryAttempt;
        t.troubleSince = troubleSince;
        t.busySince = busySince;
        t.busyNoticed = busyNoticed;
        t.subscribed = subscribed;
        t.subscribeUnsupported = subscribeUnsupported;
        t.silenceDeadline = silenceDeadline;
        t.lastEventWasTask = lastEventWasTask;
        t.streamLostAt = streamLostAt;
        t.lastSignOfLife = lastSignOfLife;
        t.pollAttempt = pollAttempt;
        t.listPages = listPages;
        t.cancelAttempts = cancelAttempts;
        t.cancelOutcome = cancelOutcome;
        t.questionDeadline = questionDeadline;
        t.answerMessageId = answerMessageId;
        t.answerText = answerText;
        t.answerActor = answerActor;
        t.answerMessageIds = new ArrayList<>(answerMessageIds);
        t.answerPending = answerPending;
        t.answerSent = answerSent;
        return t;
    }

    public String messageId() {
        return messageId;
    }

    public String text() {
        return text;
    }

    public Phase phase() {
        return phase;
    }

    public TurnView view() {
        return view;
    }

    public Outcome outcome() {
        return outcome;
    }

    public String taskId() {
        return taskId;
    }

    public int sendAttempts() {
        return sendAttempts;
    }

    public Instant waitUntil() {
        return waitUntil;
    }

    public List<String> answerMessageIds() {
        return List.copyOf(answerMessageIds);
    }

    /** The answer so far: every artifact's text, in order. */
    public String answer() {
        return String.join("", artifacts.values());
    }

    Map<String, String> artifacts() {
        return artifacts;
    }
}
