package dev.switchboard.bridge.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.client.CallFailure;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentExtension;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent contract as a state machine: {@code step(session, input, now) → (session', effects)}.
 * Pure: no I/O, no clock, no threads. Time arrives as {@code now}; waiting is a
 * {@link Effect.ScheduleTimer}. The driver stores {@code session'} before it runs the effects, so
 * every effect that depends on a state change finds it durable.
 *
 * <p>Rows of the seed (000) are named where they are implemented: Discovery, Methods, What is sent,
 * Replies, Task states, Questions, Errors.
 */
public final class Engine {

    /** kagent's human-in-the-loop extension: the only one kagent-v1 speaks; a2a speaks none. */
    public static final String KAGENT_HITL_PREFIX = "https://kagent.dev/";
    static final String ACTOR_KEY = "agentkourier.dev/actor";
    static final int MAX_LIST_PAGES = 100;
    static final int MINUS_31403 = -31403;

    private final ContractDurations d;

    public Engine(ContractDurations durations) {
        this.d = durations;
    }

    public Transition step(Session given, Input input, Instant now) {
        Step s = new Step(given.copy(), now);
        if (input instanceof Input.ChatMessage m) {
            s.chatMessage(m);
        } else if (input instanceof Input.Restarted) {
            s.restarted();
        } else {
            s.result(input);
        }
        s.finishDoneTurns();
        return new Transition(s.session, List.copyOf(s.effects));
    }

    /** One step's working state: the session copy being changed and the effects collected. */
    private final class Step {
        final Session session;
        final Instant now;
        final List<Effect> effects = new ArrayList<>();

        Step(Session session, Instant now) {
            this.session = session;
            this.now = now;
        }

        // ================= chat messages =================

        /** B7: a repeated messageId is the same turn; B9: the reply to a question is its answer. */
        void chatMessage(Input.ChatMessage m) {
            if (session.seenMessageIds.contains(m.messageId())) {
                return;
            }
            session.remember(m.messageId());
            Turn active = session.active().orElse(null);
            if (active != null && active.phase == Phase.PAUSED_INPUT) {
                answer(active, m);
                return;
            }
            Turn turn = new Turn(m.messageId(), m.text(), m.actor(), now);
            session.turns.add(turn);
            if (active == null) {
                begin(turn);
            } else {
                view(turn, TurnView.QUEUED);
                if (active.phase == Phase.PAUSED_AUTH && "a2a".equals(session.dialect)) {
                    // Task states, auth-required: on a2a a typed reply makes us read the task again
                    readTask(active);
                }
            }
        }

        // ================= starting and sending =================

        void begin(Turn turn) {
            if (session.agentVersion == null || !session.currentFingerprint.equals(session.cardFingerprint)) {
                // Discovery: the card is fetched on first use and again when the URL or credentials change
                turn.phase = Phase.FETCHING_CARD;
                view(turn, TurnView.SENDING);
                effects.add(new Effect.FetchCard(nextGen()));
                return;
            }
            send(turn);
        }

        void cardFetched(Turn turn, AgentCard card) {
            String refusal = refusal(card);
            if (refusal != null) {
                notDelivered(turn, Notices.refused(refusal));
                return;
            }
            session.agentVersion = card.interfaces().stream()
                    .filter(AgentInterface::isJsonRpc)
                    .anyMatch(i -> i.protocolVersion() != null && i.protocolVersion().startsWith("1."))
                    ? ProtocolVersion.V1_0 : ProtocolVersion.V0_3;
            session.cardFingerprint = session.currentFingerprint;
            turn.troubleSince = null;
            turn.retryAttempt = 0;
            send(turn);
        }

        /** Discovery: the refusals, in the seed's words; null when the card is acceptable. */
        String refusal(AgentCard card) {
            if (card.interfaces().stream().noneMatch(AgentInterface::isJsonRpc)) {
                return Notices.NO_JSONRPC;
            }
            if (!card.capabilities().streaming()) {
                return Notices.NO_STREAMING;
            }
            for (AgentExtension e : card.capabilities().extensions()) {
                boolean spoken = "kagent-v1".equals(session.dialect) && e.uri() != null && e.uri().startsWith(KAGENT_HITL_PREFIX);
                if (e.required() && !spoken) {
                    return Notices.UNSUPPORTED_EXTENSION;
                }
            }
            return null;
        }

        /** Methods: SendStreamingMessage for every turn; What is sent: one user message, one text part. */
        void send(Turn turn) {
            turn.phase = Phase.SENDING;
            turn.eventsThisCall = false;
            turn.lastEventWasTask = false;
            turn.sendAttempts++;
            view(turn, TurnView.SENDING);
            Message message = new Message(turn.messageId, Role.USER, List.of(Part.text(prefixed(turn.actor, turn.text))),
                    session.contextId, null, actorMetadata(turn.actor), null, null);
            long gen = nextGen();
            effects.add(new Effect.SendStream(gen, message));
            armSilence(gen);
        }

        /** Questions: the answer is one text part, to the paused taskId and contextId, with its own messageId. */
        void answer(Turn turn, Input.ChatMessage m) {
            turn.answerMessageId = m.messageId();
            turn.answerText = m.text();
            turn.answerActor = m.actor();
            turn.answerMessageIds.add(m.messageId());
            sendAnswer(turn);
        }

        void sendAnswer(Turn turn) {
            turn.phase = Phase.SENDING;
            turn.eventsThisCall = false;
            turn.lastEventWasTask = false;
            turn.questionDeadline = null;
            view(turn, TurnView.RUNNING);
            Actor actor = turn.answerActor;
            Message message = new Message(turn.answerMessageId, Role.USER,
                    List.of(Part.text(prefixed(actor, turn.answerText))), session.contextId, turn.taskId,
                    actorMetadata(actor), null, null);
            long gen = nextGen();
            effects.add(new Effect.SendStream(gen, message));
            armSilence(gen);
        }

        String prefixed(Actor actor, String text) {
            if (actor == null) {
                return text;
            }
            StringBuilder p = new StringBuilder("[").append(session.platform).append(": ");
            p.append(actor.name() == null || actor.name().isBlank() ? actor.id() : actor.name());
            p.append(" (").append(actor.id()).append(")");
            if (actor.email() != null && !actor.email().isBlank()) {
                p.append(" <").append(actor.email()).append(">");
            }
            return p.append("]\n").append(text).toString();
        }

        ObjectNode actorMetadata(Actor actor) {
            if (actor == null) {
                return null;
            }
            ObjectNode meta = JsonNodeFactory.instance.objectNode();
            ObjectNode a = meta.putObject(ACTOR_KEY);
            a.put("id", actor.id());
            if (actor.name() != null && !actor.name().isBlank()) {
                a.put("name", actor.name());
            }
            if (actor.email() != null && !actor.email().isBlank()) {
                a.put("email", actor.email());
            }
            return meta;
        }

        // ================= results of calls and timers =================

        void result(Input input) {
            Turn turn = session.active().orElse(null);
            if (turn == null || genOf(input) != session.gen) {
                return; // stale: its call or timer was superseded
            }
            if (input instanceof Input.CardFetched c) {
                cardFetched(turn, c.card());
            } else if (input instanceof Input.StreamEventReceived e) {
                event(turn, e.event());
            } else if (input instanceof Input.StreamEnded) {
                streamEnded(turn);
            } else if (input instanceof Input.CallFailed f) {
                failed(turn, f);
            } else if (input instanceof Input.TaskRead r) {
                taskRead(turn, r.task());
            } else if (input instanceof Input.TasksListed l) {
                listed(turn, l.page());
            } else if (input instanceof Input.CancelAccepted c) {
                cancelled(turn, c.task());
            } else if (input instanceof Input.TimerFired) {
                timer(turn);
            }
        }

        long genOf(Input input) {
            if (input instanceof Input.CardFetched c) {
                return c.gen();
            } else if (input instanceof Input.StreamEventReceived e) {
                return e.gen();
            } else if (input instanceof Input.StreamEnded e) {
                return e.gen();
            } else if (input instanceof Input.CallFailed f) {
                return f.gen();
            } else if (input instanceof Input.TaskRead r) {
                return r.gen();
            } else if (input instanceof Input.TasksListed l) {
                return l.gen();
            } else if (input instanceof Input.CancelAccepted c) {
                return c.gen();
            } else if (input instanceof Input.TimerFired t) {
                return t.gen();
            }
            return -1;
        }

        // ================= Replies =================

        void event(Turn turn, StreamEvent event) {
            String taskId;
            String contextId;
            if (event instanceof Task t) {
                taskId = t.id();
                contextId = t.contextId();
            } else if (event instanceof TaskStatusUpdateEvent u) {
                taskId = u.taskId();
                contextId = u.contextId();
            } else if (event instanceof TaskArtifactUpdateEvent a) {
                taskId = a.taskId();
                contextId = a.contextId();
            } else {
                // Replies: a bare Message names no task, so the outcome is unknown
                effects.add(new Effect.CloseStream());
                unknownOutcome(turn, null);
                return;
            }
            if (isBlank(taskId) || isBlank(contextId) || (turn.taskId != null && !turn.taskId.equals(taskId))) {
                // Replies: events must name the task and its context, else as for a bare Message
                effects.add(new Effect.CloseStream());
                unknownOutcome(turn, null);
                return;
            }
            adoptContext(turn, contextId);
            turn.taskId = taskId;
            turn.eventsThisCall = true;
            turn.lastSignOfLife = now;
            turn.busySince = null;
            turn.troubleSince = null;
            turn.retryAttempt = 0;
            turn.phase = Phase.STREAMING;
            turn.lastEventWasTask = event instanceof Task;
            if (event instanceof Task t) {
                if (t.artifacts() != null) {
                    replaceArtifacts(turn, t.artifacts());
                }
                status(turn, t.status(), false);
            } else if (event instanceof TaskStatusUpdateEvent u) {
                status(turn, u.status(), false);
            } else if (event instanceof TaskArtifactUpdateEvent a) {
                artifact(turn, a);
            }
            if (turn.phase == Phase.STREAMING) {
                armSilence(session.gen);
            }
        }

        /** Replies: a different contextId posts the notice and the new context is kept. */
        void adoptContext(Turn turn, String contextId) {
            if (session.contextId != null && !session.contextId.equals(contextId)) {
                effects.add(new Effect.PostNotice(turn.messageId, Notices.CONTEXT_CHANGED));
            }
            session.contextId = contextId;
        }

        /** Replies: append adds to that artifact's text, anything else replaces it; lastChunk is not read. */
        void artifact(Turn turn, TaskArtifactUpdateEvent a) {
            Artifact art = a.artifact();
            if (art == null) {
                return;
            }
            String key = art.artifactId() == null ? "" : art.artifactId();
            String text = text(art.parts());
            if (a.append()) {
                turn.artifacts.merge(key, text, String::concat);
            } else {
                turn.artifacts.put(key, text);
            }
            effects.add(new Effect.ShowAnswer(turn.messageId, turn.answer()));
        }

        void replaceArtifacts(Turn turn, List<Artifact> artifacts) {
            String before = turn.answer();
            turn.artifacts.clear();
            for (Artifact a : artifacts) {
                turn.artifacts.put(a.artifactId() == null ? "" : a.artifactId(), text(a.parts()));
            }
            if (!turn.answer().equals(before)) {
                effects.add(new Effect.ShowAnswer(turn.messageId, turn.answer()));
            }
        }

        /** Only text parts are shown; file and data parts never are. */
        String text(List<Part> parts) {
            StringBuilder sb = new StringBuilder();
            for (Part p : parts) {
                if (p instanceof Part.Text t && t.text() != null) {
                    sb.append(t.text());
                }
            }
            return sb.toString();
        }

        void streamEnded(Turn turn) {
            if (turn.phase == Phase.SENDING || turn.phase == Phase.SUBSCRIBING) {
                // closed without a single event: nothing says what happened
                if (turn.phase == Phase.SUBSCRIBING) {
                    readTask(turn);
                } else {
                    unknownOutcome(turn, null);
                }
                return;
            }
            settleOrRead(turn);
        }

        /**
         * Replies: the stream must end with a full Task in a terminal, input-required or auth-required
         * state; otherwise it counts as dropped and GetTask settles the turn after a second.
         */
        void settleOrRead(Turn turn) {
            if (turn.lastEventWasTask && turn.lastState != null
                    && (turn.lastState.isTerminal() || turn.lastState.isInterrupted())) {
                return; // status() already settled it
            }
            waitThen(turn, Turn.Next.GET_TASK, d.settleDelay());
        }

        // ================= Task states =================

        /**
         * Applies a task status. {@code settle} is true when it comes from a full Task read with GetTask
         * (or ListTasks): then a running state means following the task again.
         */
        void status(Turn turn, TaskStatus status, boolean fromRead) {
            TaskState state = status.state();
            turn.lastState = state;
            if (status.timestamp() != null) {
                turn.lastStatusTimestamp = status.timestamp();
            }
            switch (state) {
                case SUBMITTED, WORKING -> {
                    view(turn, TurnView.RUNNING);
                    if (fromRead) {
                        subscribe(turn);
                    }
                }
                case COMPLETED -> {
                    if (turn.lastEventWasTask || fromRead) {
                        complete(turn);
                    } else {
                        view(turn, TurnView.RUNNING); // settled by the final Task or by GetTask
                    }
                }
                case INPUT_REQUIRED -> {
                    if (turn.lastEventWasTask || fromRead) {
                        question(turn, status.message(), fromRead);
                    } else {
                        view(turn, TurnView.RUNNING); // the stream ends here; the full Task settles it
                    }
                }
                case AUTH_REQUIRED -> {
                    // Task states: paused, with no prompt and no timeout; later replies wait behind it
                    turn.phase = Phase.PAUSED_AUTH;
                    view(turn, TurnView.PAUSED);
                    nextGen();
                    effects.add(new Effect.CloseStream());
                }
                case FAILED, REJECTED, CANCELED -> {
                    if (turn.lastEventWasTask || fromRead) {
                        endWithState(turn, state, status.message());
                    } else {
                        view(turn, TurnView.RUNNING);
                    }
                }
                default -> {
                    // Task states: any other terminal state is treated as failed; an unknown state met
                    // while reading a settled task is one
                    if (fromRead) {
                        endWithState(turn, TaskState.FAILED, status.message());
                    }
                }
            }
        }

        void complete(Turn turn) {
            if (turn.answer().isEmpty()) {
                effects.add(new Effect.PostNotice(turn.messageId, Notices.NO_OUTPUT));
            }
            done(turn, Outcome.COMPLETED, TurnView.COMPLETED);
        }

        void endWithState(Turn turn, TaskState state, Message statusMessage) {
            switch (state) {
                case REJECTED -> {
                    effects.add(new Effect.PostNotice(turn.messageId, Notices.REJECTED));
                    done(turn, Outcome.REJECTED, TurnView.REJECTED);
                }
                case CANCELED -> {
                    effects.add(new Effect.PostNotice(turn.messageId, Notices.CANCELED));
                    done(turn, Outcome.CANCELED, TurnView.CANCELED);
                }
                default -> {
                    effects.add(new Effect.PostNotice(turn.messageId, Notices.taskFailed(FailureCategory.of(statusMessage))));
                    done(turn, Outcome.FAILED, TurnView.FAILED);
                }
            }
        }

        /**
         * Questions: a status message made only of non-empty text parts, with a messageId or status
         * timestamp that differs from the last question's. Anything else in input-required cannot be
         * shown: the task is cancelled and the thread told.
         */
        void question(Turn turn, Message message, boolean fromRead) {
            boolean showable = message != null && !message.parts().isEmpty() && message.parts().stream()
                    .allMatch(p -> p instanceof Part.Text t && t.text() != null && !t.text().isBlank());
            if (!showable) {
                cancel(turn, Notices.QUESTION_UNSHOWABLE, Outcome.CANCELED);
                return;
            }
            // the question already asked (same messageId and status timestamp) is not asked again: in the
            // snapshot that opens an answer's stream it is simply old news; read back from the agent, it
            // means the task still waits for an answer
            boolean same = session.lastQuestionMessageId != null
                    && session.lastQuestionMessageId.equals(message.messageId())
                    && java.util.Objects.equals(session.lastQuestionTimestamp, turn.lastStatusTimestamp);
            if (same && !fromRead && turn.answerMessageId != null) {
                return;
            }
            if (!same && !session.questionsAllowed) {
                cancel(turn, Notices.QUESTION_NOT_ALLOWED, Outcome.CANCELED);
                return;
            }
            session.lastQuestionMessageId = message.messageId();
            session.lastQuestionTimestamp = turn.lastStatusTimestamp;
            turn.phase = Phase.PAUSED_INPUT;
            view(turn, TurnView.WAITING_FOR_ANSWER);
            long gen = nextGen();
            effects.add(new Effect.CloseStream());
            if (!same) {
                effects.add(new Effect.AskQuestion(turn.messageId, message.text()));
            }
            turn.questionDeadline = now.plus(session.questionTimeout);
            effects.add(new Effect.ScheduleTimer(gen, turn.questionDeadline));
        }

        // ================= Errors =================

        void failed(Turn turn, Input.CallFailed f) {
            CallFailure failure = f.failure();
            // Errors: HTTP 401 or 403 at any call fails the turn without a retry, and is counted
            if (failure instanceof CallFailure.HttpStatus h && (h.status() == 401 || h.status() == 403)) {
                effects.add(new Effect.CountCredentialRejection());
                if (f.call() == Input.Call.CANCEL) {
                    cancelFailedForGood(turn);
                } else {
                    notDelivered(turn, Notices.CREDENTIALS_REJECTED);
                }
                return;
            }
            int rpc = failure instanceof CallFailure.RpcError r ? r.code() : 0;
            if (rpc == MINUS_31403) {
                notDelivered(turn, Notices.IDENTITY_REFUSED); // Errors: the identity is refused for this session
                return;
            }
            switch (f.call()) {
                case CARD -> retryWithin(turn, Turn.Next.FETCH_CARD, failure, Notices.unreachable());
                case SEND -> sendFailed(turn, f, rpc);
                case GET_TASK -> {
                    if (rpc == JsonRpcError.TASK_NOT_FOUND) {
                        sessionGone(turn);
                    } else {
                        poll(turn);
                    }
                }
                case SUBSCRIBE -> {
                    if (rpc == JsonRpcError.TASK_NOT_FOUND) {
                        sessionGone(turn);
                    } else if (f.afterEvents()) {
                        readTask(turn);
                    } else {
                        // Methods: without a working subscription the task is read again with GetTask, backing off
                        poll(turn);
                    }
                }
                case LIST_TASKS -> retryWithin(turn, Turn.Next.LOOKUP, failure, Notices.unreachable());
                case CANCEL -> cancelFailed(turn);
            }
        }

        void sendFailed(Turn turn, Input.CallFailed f, int rpc) {
            CallFailure failure = f.failure();
            boolean answering = turn.answerMessageId != null;
            if (f.afterEvents()) {
                // the stream dropped after events: GetTask, then follow or settle
                lost(turn);
                return;
            }
            if (rpc == JsonRpcError.UNSUPPORTED_OPERATION) {
                busy(turn, failure);
                return;
            }
            if (answering && rpc == JsonRpcError.TASK_NOT_FOUND) {
                sessionGone(turn); // the paused task is gone with its session
                return;
            }
            if (answering && rpc == JsonRpcError.INTERNAL_ERROR) {
                cancel(turn, Notices.ANSWER_REJECTED, Outcome.CANCELED); // Errors: the answer is rejected
                return;
            }
            if (failure instanceof CallFailure.HttpStatus h && h.status() >= 300 && h.status() < 500
                    && h.status() != 408 && h.status() != 429) {
                // Errors: another 4xx before any event: not sent; retried, then failed after 15 minutes
                retryWithin(turn, Turn.Next.SEND, failure, Notices.refused("the agent did not accept it"));
                return;
            }
            if (failure instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.CONNECT) {
                // nothing reached the agent: resend without a lookup
                retryWithin(turn, Turn.Next.SEND, failure, Notices.unreachable());
                return;
            }
            // Errors: 5xx or a dropped connection before any event: the outcome is unknown
            unknownOutcome(turn, failure);
        }

        /** Errors, -32004 to a send: busy; the same message is sent again after a backoff for as long as it takes. */
        void busy(Turn turn, CallFailure failure) {
            if (turn.busySince == null) {
                turn.busySince = now;
            }
            view(turn, TurnView.RETRYING);
            turn.retryAttempt++;
            Duration delay = d.delay(turn.retryAttempt, d.retryBackoffMax(), failure.retryAfter());
            Instant at = now.plus(delay);
            Instant noticeAt = turn.busySince.plus(d.busyNoticeAfter());
            if (!turn.busyNoticed && !now.isBefore(noticeAt)) {
                turn.busyNoticed = true;
                effects.add(new Effect.PostNotice(turn.messageId, Notices.BUSY));
            } else if (!turn.busyNoticed && at.isAfter(noticeAt)) {
                at = noticeAt; // wake up in time to tell the thread, then resend
            }
            waitUntil(turn, Turn.Next.SEND, at);
        }

        /**
         * The outcome of a send is unknown. Methods: ListTasks before resending into an existing
         * context (1.0 only); a thread's first turn, and every 0.3 turn, is simply sent again.
         */
        void unknownOutcome(Turn turn, CallFailure failure) {
            if (turn.troubleSince == null) {
                turn.troubleSince = now;
            }
            if (giveUp(turn, Notices.unreachable())) {
                return;
            }
            turn.retryAttempt++;
            Duration delay = d.delay(turn.retryAttempt, d.retryBackoffMax(), failure == null ? null : failure.retryAfter());
            waitUntil(turn, Turn.Next.LOOKUP, now.plus(delay));
        }

        void lookup(Turn turn) {
            if (session.agentVersion == ProtocolVersion.V1_0 && session.contextId != null && turn.answerMessageId == null) {
                turn.phase = Phase.LISTING;
                turn.listToken = null;
                turn.listPages = 0;
                view(turn, TurnView.RETRYING);
                effects.add(new Effect.ListTasks(nextGen(), session.contextId, null));
            } else if (turn.answerMessageId != null) {
                sendAnswer(turn);
            } else {
                send(turn);
            }
        }

        /** Methods, ListTasks: a turn counts as found only if a task's history holds its messageId. */
        void listed(Turn turn, ListTasksResult page) {
            turn.listPages++;
            for (Task t : page.tasks()) {
                if (t.history() != null && t.history().stream().anyMatch(m -> turn.messageId.equals(m.messageId()))) {
                    turn.taskId = t.id();
                    turn.troubleSince = null;
                    turn.retryAttempt = 0;
                    turn.lastSignOfLife = now;
                    if (t.artifacts() != null) {
                        replaceArtifacts(turn, t.artifacts());
                    }
                    turn.lastEventWasTask = true;
                    status(turn, t.status(), true);
                    return;
                }
            }
            if (!page.nextPageToken().isEmpty() && turn.listPages < MAX_LIST_PAGES) {
                turn.listToken = page.nextPageToken();
                effects.add(new Effect.ListTasks(nextGen(), session.contextId, page.nextPageToken()));
                return;
            }
            send(turn); // not found: sent again with the same messageId
        }

        /** Retries {@code next} with backoff inside the 15-minute window, then fails with {@code notice}. */
        void retryWithin(Turn turn, Turn.Next next, CallFailure failure, String notice) {
            if (turn.troubleSince == null) {
                turn.troubleSince = now;
            }
            if (giveUp(turn, notice)) {
                return;
            }
            turn.retryAttempt++;
            view(turn, TurnView.RETRYING);
            waitUntil(turn, next, now.plus(d.delay(turn.retryAttempt, d.retryBackoffMax(), failure.retryAfter())));
        }

        boolean giveUp(Turn turn, String notice) {
            if (!now.isBefore(turn.troubleSince.plus(d.giveUpAfter()))) {
                notDelivered(turn, notice);
                return true;
            }
            return false;
        }

        /** Errors, -32001 while a task is followed: the session is gone; the next turn starts a new context. */
        void sessionGone(Turn turn) {
            session.contextId = null;
            effects.add(new Effect.PostNotice(turn.messageId, Notices.SESSION_GONE));
            done(turn, Outcome.NOT_DELIVERED, TurnView.FAILED);
        }

        // ================= following a task =================

        /** The stream was lost after events: read the task, then follow or settle. */
        void lost(Turn turn) {
            if (turn.streamLostAt == null) {
                turn.streamLostAt = now;
            }
            readTask(turn);
        }

        void readTask(Turn turn) {
            if (turn.taskId == null) {
                unknownOutcome(turn, null);
                return;
            }
            turn.phase = Phase.READING_TASK;
            effects.add(new Effect.GetTask(nextGen(), turn.taskId));
        }

        void taskRead(Turn turn, Task task) {
            if (turn.taskId != null && task.id() != null && !turn.taskId.equals(task.id())) {
                poll(turn);
                return;
            }
            if (task.contextId() != null) {
                adoptContext(turn, task.contextId());
            }
            boolean moved = turn.lastState != task.state()
                    || (task.status().timestamp() != null && !task.status().timestamp().equals(turn.lastStatusTimestamp));
            if (moved) {
                turn.lastSignOfLife = now;
            }
            if (turn.phase == Phase.CANCELLING) {
                return;
            }
            if (turn.streamLostAt != null && !task.state().isTerminal() && !task.state().isInterrupted()
                    && !now.isBefore(turn.lastSignOfLife.plus(d.noSignOfLife()))) {
                // Methods, CancelTask: no sign of life for an hour after the stream was lost
                cancel(turn, Notices.NO_SIGN_OF_LIFE, Outcome.CANCELED);
                return;
            }
            if (task.artifacts() != null) {
                replaceArtifacts(turn, task.artifacts());
            }
            turn.lastEventWasTask = true;
            if (task.state() == TaskState.AUTH_REQUIRED && turn.phase == Phase.READING_TASK
                    && turn.lastState == TaskState.AUTH_REQUIRED && !moved) {
                turn.phase = Phase.PAUSED_AUTH; // still paused: the typed reply keeps waiting
                return;
            }
            status(turn, task.status(), true);
        }

        /** Methods, SubscribeToTask: after a drop, when GetTask shows the task still running. */
        void subscribe(Turn turn) {
            turn.phase = Phase.SUBSCRIBING;
            turn.eventsThisCall = false;
            turn.lastEventWasTask = false;
            view(turn, TurnView.RUNNING);
            long gen = nextGen();
            effects.add(new Effect.Subscribe(gen, turn.taskId));
            armSilence(gen);
        }

        /** GetTask again with a backoff of up to a minute. */
        void poll(Turn turn) {
            if (turn.streamLostAt == null) {
                turn.streamLostAt = now;
            }
            if (turn.lastSignOfLife != null && !now.isBefore(turn.lastSignOfLife.plus(d.noSignOfLife()))) {
                cancel(turn, Notices.NO_SIGN_OF_LIFE, Outcome.CANCELED);
                return;
            }
            turn.pollAttempt++;
            waitUntil(turn, Turn.Next.GET_TASK, now.plus(ContractDurations.backoff(turn.pollAttempt, d.pollBackoffMax())));
        }

        // ================= timers =================

        /** Replies: no event for 5 minutes cuts the stream; the task is followed again. */
        void armSilence(long gen) {
            effects.add(new Effect.ScheduleTimer(gen, now.plus(d.silenceLimit())));
        }

        void timer(Turn turn) {
            switch (turn.phase) {
                case SENDING, STREAMING, SUBSCRIBING -> {
                    effects.add(new Effect.CloseStream());
                    if (turn.taskId != null) {
                        if (turn.streamLostAt == null) {
                            turn.streamLostAt = now;
                        }
                        readTask(turn);
                    } else {
                        unknownOutcome(turn, null);
                    }
                }
                case PAUSED_INPUT -> cancel(turn, Notices.QUESTION_TIMED_OUT, Outcome.CANCELED);
                case WAITING -> wake(turn);
                default -> { }
            }
        }

        void wake(Turn turn) {
            Turn.Next next = turn.next;
            turn.next = null;
            turn.waitUntil = null;
            switch (next) {
                case FETCH_CARD -> {
                    turn.phase = Phase.FETCHING_CARD;
                    effects.add(new Effect.FetchCard(nextGen()));
                }
                case SEND -> {
                    if (turn.busySince != null && !turn.busyNoticed
                            && !now.isBefore(turn.busySince.plus(d.busyNoticeAfter()))) {
                        turn.busyNoticed = true;
                        effects.add(new Effect.PostNotice(turn.messageId, Notices.BUSY));
                    }
                    if (turn.answerMessageId != null) {
                        sendAnswer(turn);
                    } else if (session.agentVersion == null || !session.currentFingerprint.equals(session.cardFingerprint)) {
                        begin(turn);
                    } else {
                        send(turn);
                    }
                }
                case LOOKUP -> lookup(turn);
                case GET_TASK -> readTask(turn);
                case CANCEL -> issueCancel(turn);
            }
        }

        void waitThen(Turn turn, Turn.Next next, Duration delay) {
            waitUntil(turn, next, now.plus(delay));
        }

        void waitUntil(Turn turn, Turn.Next next, Instant at) {
            turn.phase = Phase.WAITING;
            turn.next = next;
            turn.waitUntil = at;
            effects.add(new Effect.ScheduleTimer(nextGen(), at));
        }

        // ================= cancels =================

        /** Methods, CancelTask: posts the reason, then cancels; retried a few times, then reported. */
        void cancel(Turn turn, String notice, Outcome outcome) {
            effects.add(new Effect.PostNotice(turn.messageId, notice));
            effects.add(new Effect.CloseStream());
            turn.cancelOutcome = outcome;
            turn.cancelAttempts = 0;
            if (turn.taskId == null) {
                done(turn, outcome, TurnView.CANCELED);
                return;
            }
            issueCancel(turn);
        }

        void issueCancel(Turn turn) {
            turn.phase = Phase.CANCELLING;
            turn.cancelAttempts++;
            view(turn, TurnView.CANCELLING);
            effects.add(new Effect.CancelTask(nextGen(), turn.taskId));
        }

        void cancelled(Turn turn, Task task) {
            done(turn, turn.cancelOutcome == null ? Outcome.CANCELED : turn.cancelOutcome, TurnView.CANCELED);
        }

        void cancelFailed(Turn turn) {
            if (turn.cancelAttempts < d.cancelAttempts()) {
                turn.phase = Phase.WAITING;
                turn.next = Turn.Next.CANCEL;
                turn.waitUntil = now.plus(ContractDurations.backoff(turn.cancelAttempts, d.retryBackoffMax()));
                effects.add(new Effect.ScheduleTimer(nextGen(), turn.waitUntil));
                return;
            }
            cancelFailedForGood(turn);
        }

        void cancelFailedForGood(Turn turn) {
            effects.add(new Effect.PostNotice(turn.messageId, Notices.CANCEL_FAILED));
            done(turn, turn.cancelOutcome == null ? Outcome.CANCELED : turn.cancelOutcome, TurnView.CANCELED);
        }

        // ================= restart =================

        /** B14: unfinished turns are recovered as the seed says; queued ones wait their turn. */
        void restarted() {
            Turn turn = session.active().orElse(null);
            if (turn == null) {
                if (!session.turns.isEmpty()) {
                    begin(session.turns.get(0));
                }
                return;
            }
            switch (turn.phase) {
                case FETCHING_CARD -> begin(turn);
                case SENDING, STREAMING, SUBSCRIBING, READING_TASK -> {
                    if (turn.taskId != null) {
                        readTask(turn); // Methods, GetTask: before following a task after a restart
                    } else {
                        unknownOutcome(turn, null); // Methods, ListTasks: on recovery after a restart
                    }
                }
                case LISTING -> lookup(turn);
                case WAITING -> effects.add(new Effect.ScheduleTimer(nextGen(),
                        turn.waitUntil == null || turn.waitUntil.isBefore(now) ? now : turn.waitUntil));
                case PAUSED_INPUT -> effects.add(new Effect.ScheduleTimer(nextGen(),
                        turn.questionDeadline == null || turn.questionDeadline.isBefore(now) ? now : turn.questionDeadline));
                case CANCELLING -> issueCancel(turn);
                default -> { }
            }
        }

        // ================= endings =================

        void notDelivered(Turn turn, String notice) {
            effects.add(new Effect.PostNotice(turn.messageId, notice));
            done(turn, Outcome.NOT_DELIVERED, TurnView.NOT_DELIVERED);
        }

        void done(Turn turn, Outcome outcome, TurnView view) {
            turn.phase = Phase.DONE;
            turn.outcome = outcome;
            view(turn, view);
            nextGen(); // anything still in flight for it is now stale
        }

        /** Removes finished turns and starts the next queued one (B7: one task per context at a time). */
        void finishDoneTurns() {
            boolean removed = session.turns.removeIf(t -> t.phase == Phase.DONE);
            if (removed && !session.turns.isEmpty() && session.turns.get(0).phase == Phase.QUEUED) {
                begin(session.turns.get(0));
            }
        }

        void view(Turn turn, TurnView view) {
            if (turn.view != view) {
                turn.view = view;
                effects.add(new Effect.TurnStateChanged(turn.messageId, view));
            }
        }

        long nextGen() {
            return ++session.gen;
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
