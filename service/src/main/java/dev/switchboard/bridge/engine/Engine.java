package dev.switchboard.bridge.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.Map;
import java.util.Objects;

/**
 * The agent contract as a state machine: {@code step(session, input, now) → (session', effects)}.
 * Pure: no I/O, no clock, no threads. Time arrives as {@code now}; waiting is a
 * {@link Effect.ScheduleTimer}. The driver stores {@code session'} before it runs the effects, so
 * every effect that depends on a state change finds it durable.
 *
 * <p>Timers may fire late, early or more than once (a driver may keep every timer it was asked for,
 * or only the newest): each phase checks its own deadline, so a timer that is not yet due, or whose
 * generation was superseded, does nothing.
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
    static final String A2A = "a2a";

    /** Bounds (issue 8): an answer longer than this is cut, with a note saying so (the seed sets no limit). */
    public static final int DEFAULT_MAX_ANSWER_CHARS = 100_000;

    private final ContractDurations d;
    private final int maxAnswerChars;

    public Engine(ContractDurations durations) {
        this(durations, DEFAULT_MAX_ANSWER_CHARS);
    }

    public Engine(ContractDurations durations, int maxAnswerChars) {
        if (maxAnswerChars < 1) {
            throw new IllegalArgumentException("maxAnswerChars must be positive");
        }
        this.d = durations;
        this.maxAnswerChars = maxAnswerChars;
    }

    /** The note that ends an answer cut at {@code max} characters. */
    public static String cutNote(int max) {
        return "\n\n… (answer cut at " + max + " characters)";
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
                begin(session.turns.get(0));
                if (turn != session.turns.get(0)) {
                    view(turn, TurnView.QUEUED);
                }
                return;
            }
            // Replies: while a task of the session is recorded, no new turn is sent; replies queue behind it
            view(turn, TurnView.QUEUED);
            if (active.phase == Phase.PAUSED_AUTH && A2A.equals(session.dialect)) {
                // Task states, auth-required: on a2a a typed reply makes us read the task again
                readTask(active);
            }
        }

        // ================= starting and sending =================

        void begin(Turn turn) {
            if (session.agentVersion == null || !Objects.equals(session.currentFingerprint, session.cardFingerprint)) {
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
            // Discovery: interfaces that are not JSON-RPC are dropped; the version is read from those left
            session.agentVersion = card.interfaces().stream()
                    .filter(AgentInterface::isJsonRpc)
                    .anyMatch(i -> i.protocolVersion() != null && i.protocolVersion().startsWith("1."))
                    ? ProtocolVersion.V1_0 : ProtocolVersion.V0_3;
            session.cardFingerprint = session.currentFingerprint;
            if (turn.sendAttempts == 0) {
                turn.troubleSince = null; // the card's retry window is over; a resend keeps its own window
                turn.retryAttempt = 0;
            }
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
            openCall(turn, false);
            turn.sendAttempts++;
            view(turn, TurnView.SENDING);
            // What is sent: contextId empty on the first turn, then the agent's; a new turn never sets taskId
            Message message = new Message(turn.messageId, Role.USER, List.of(Part.text(prefixed(turn.actor, turn.text))),
                    session.contextId, null, actorMetadata(turn.actor), null, null);
            long gen = nextGen();
            effects.add(new Effect.SendStream(gen, message));
            armSilence(turn, gen);
        }

        /**
         * Questions: the reply to a question is its answer. Methods, GetTask: on a2a the task is read
         * first, so an answer goes only to a task that still asks the question that was shown.
         */
        void answer(Turn turn, Input.ChatMessage m) {
            turn.answerMessageId = m.messageId();
            turn.answerText = m.text();
            turn.answerActor = m.actor();
            turn.answerMessageIds.add(m.messageId());
            turn.answerPending = true;
            turn.answerSent = false;
            turn.questionDeadline = null;
            view(turn, TurnView.RUNNING);
            if (A2A.equals(session.dialect)) {
                readTask(turn);
            } else {
                sendAnswer(turn);
            }
        }

        /** Questions: the answer is one text part, to the paused taskId and contextId, with its own messageId. */
        void sendAnswer(Turn turn) {
            turn.phase = Phase.SENDING;
            openCall(turn, false);
            turn.answerSent = true;
            turn.questionDeadline = null;
            view(turn, TurnView.RUNNING);
            Actor actor = turn.answerActor;
            Message message = new Message(turn.answerMessageId, Role.USER,
                    List.of(Part.text(prefixed(actor, turn.answerText))), session.contextId, turn.taskId,
                    actorMetadata(actor), null, null);
            long gen = nextGen();
            effects.add(new Effect.SendStream(gen, message));
            armSilence(turn, gen);
        }

        /** The agent did not take the answer (the task still asks the same question): it is sent again. */
        void answerStillWanted(Turn turn) {
            if (!turn.answerSent) {
                sendAnswer(turn);
                return;
            }
            if (turn.troubleSince == null) {
                turn.troubleSince = now;
            }
            if (!giveUp(turn, Notices.unreachable())) {
                sendAnswer(turn);
            }
        }

        /**
         * The agent moved on before a typed reply could answer its question: the reply is not an
         * answer but a turn of its own, queued behind the task (nothing a person wrote is lost).
         */
        void replyIsNotAnAnswer(Turn turn) {
            Turn reply = new Turn(turn.answerMessageId, turn.answerText, turn.answerActor, now);
            turn.answerMessageIds.remove(turn.answerMessageId);
            turn.answerMessageId = null;
            turn.answerText = null;
            turn.answerActor = null;
            turn.answerPending = false;
            session.turns.add(session.turns.indexOf(turn) + 1, reply);
            view(reply, TurnView.QUEUED);
        }

        void openCall(Turn turn, boolean subscription) {
            turn.lastEventWasTask = false;
            turn.subscribed = subscription;
        }

        /** What is sent: a person's text starts with {@code [Platform: Name (id) <email>]} and a newline. */
        String prefixed(Actor actor, String text) {
            if (actor == null) {
                return text;
            }
            StringBuilder p = new StringBuilder("[").append(session.platform).append(": ");
            p.append(isBlank(actor.name()) ? actor.id() : actor.name());
            p.append(" (").append(actor.id()).append(")");
            if (!isBlank(actor.email())) {
                p.append(" <").append(actor.email()).append(">");
            }
            return p.append("]\n").append(text).toString();
        }

        /** What is sent: metadata["agentkourier.dev/actor"] = {id, name, email} on a person's turn only. */
        ObjectNode actorMetadata(Actor actor) {
            if (actor == null) {
                return null;
            }
            ObjectNode meta = JsonNodeFactory.instance.objectNode();
            ObjectNode a = meta.putObject(ACTOR_KEY);
            a.put("id", actor.id());
            if (!isBlank(actor.name())) {
                a.put("name", actor.name());
            }
            if (!isBlank(actor.email())) {
                a.put("email", actor.email());
            }
            return meta;
        }

        // ================= results of calls and timers =================

        void result(Input input) {
            Turn turn = session.active().orElse(null);
            if (turn == null || ((Input.Result) input).gen() != session.gen) {
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
                cancelled(turn);
            } else if (input instanceof Input.TimerFired) {
                timer(turn);
            }
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
                badEvent(turn);
                return;
            }
            if (isBlank(taskId) || isBlank(contextId) || (turn.taskId != null && !turn.taskId.equals(taskId))) {
                // Replies: events must name the task and its context, else as for a bare Message
                badEvent(turn);
                return;
            }
            if (signOfLife(turn, event)) {
                turn.lastSignOfLife = now;
                turn.pollAttempt = 0;
            }
            adoptContext(turn, contextId);
            turn.taskId = taskId;
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
                turn.answerPending = false;
                artifact(turn, a);
            }
            // Replies: every event restarts the 5-minute silence limit (its timer re-arms itself when it fires early)
            turn.silenceDeadline = now.plus(d.silenceLimit());
        }

        /**
         * An event the turn cannot use. On a send the outcome is unknown (Replies); on a subscription
         * the task is known, so it is simply read again.
         */
        void badEvent(Turn turn) {
            effects.add(new Effect.CloseStream());
            if (turn.subscribed && turn.taskId != null) {
                lost(turn);
            } else {
                unknownOutcome(turn, null);
            }
        }

        /**
         * Methods, CancelTask: a sign of life is news from the task. Updates are; a full Task is only
         * when it differs from what was known (the snapshot that opens every subscription is not).
         */
        boolean signOfLife(Turn turn, StreamEvent event) {
            if (!(event instanceof Task t)) {
                return true;
            }
            return changed(turn, t);
        }

        boolean changed(Turn turn, Task t) {
            return turn.lastState != t.state()
                    || (t.status().timestamp() != null && !t.status().timestamp().equals(turn.lastStatusTimestamp))
                    || (t.artifacts() != null && !capped(joined(t.artifacts())).equals(turn.answer()));
        }

        String joined(List<Artifact> artifacts) {
            StringBuilder sb = new StringBuilder();
            for (Artifact a : artifacts) {
                sb.append(text(a.parts()));
            }
            return sb.toString();
        }

        /** Replies: a different contextId posts the notice and the new context is kept. */
        void adoptContext(Turn turn, String contextId) {
            if (session.contextId != null && !session.contextId.equals(contextId)) {
                effects.add(new Effect.PostNotice(turn.messageId, Notices.CONTEXT_CHANGED));
            }
            session.contextId = contextId;
        }

        /**
         * Replies: append adds to that artifact's text, anything else replaces it; lastChunk is not read.
         * Bounds: text beyond {@code maxAnswerChars} is dropped, so appends past the cap change nothing.
         */
        void artifact(Turn turn, TaskArtifactUpdateEvent a) {
            Artifact art = a.artifact();
            if (art == null) {
                return;
            }
            String before = shown(turn);
            String key = art.artifactId() == null ? "" : art.artifactId();
            String text = text(art.parts());
            if (a.append()) {
                turn.artifacts.merge(key, text, String::concat);
            } else {
                turn.artifacts.put(key, text);
            }
            turn.answerCut |= cap(turn);
            if (!shown(turn).equals(before)) {
                effects.add(new Effect.ShowAnswer(turn.messageId, shown(turn)));
            }
        }

        void replaceArtifacts(Turn turn, List<Artifact> artifacts) {
            String before = shown(turn);
            turn.artifacts.clear();
            for (Artifact a : artifacts) {
                turn.artifacts.put(a.artifactId() == null ? "" : a.artifactId(), text(a.parts()));
            }
            turn.answerCut = cap(turn);
            if (!shown(turn).equals(before)) {
                effects.add(new Effect.ShowAnswer(turn.messageId, shown(turn)));
            }
        }

        /** Cuts the artifact texts so that together they hold at most maxAnswerChars; true when it cut any. */
        boolean cap(Turn turn) {
            int budget = maxAnswerChars;
            boolean cut = false;
            for (Map.Entry<String, String> e : turn.artifacts.entrySet()) {
                String v = e.getValue();
                if (v.length() > budget) {
                    e.setValue(capped(v, budget));
                    cut = true;
                }
                budget -= e.getValue().length();
            }
            return cut;
        }

        String capped(String text) {
            return text.length() > maxAnswerChars ? capped(text, maxAnswerChars) : text;
        }

        /** The first {@code max} characters, without half a surrogate pair at the end. */
        String capped(String text, int max) {
            int end = Math.max(0, max);
            if (end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
                end--;
            }
            return text.substring(0, Math.min(end, text.length()));
        }

        /** What the thread shows: the answer, and when it was cut, a note saying where. */
        String shown(Turn turn) {
            return turn.answerCut ? turn.answer() + cutNote(maxAnswerChars) : turn.answer();
        }

        /** Replies: only artifact text parts are shown; file and data parts never are. */
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
            if (turn.phase == Phase.SENDING) {
                unknownOutcome(turn, null); // closed without a single event: nothing says what happened
            } else if (turn.subscribed) {
                lost(turn);
            } else if (turn.phase == Phase.STREAMING) {
                settle(turn);
            }
        }

        /**
         * Replies: the stream must end with a full Task in a terminal, input-required or auth-required
         * state (such a Task settles the turn as it arrives, and its stream's end is then stale);
         * a stream that ends any other way counts as dropped, and GetTask settles the turn after a second.
         */
        void settle(Turn turn) {
            waitThen(turn, Turn.Next.GET_TASK, d.settleDelay());
        }

        // ================= Task states =================

        /**
         * Applies a task status. {@code fromRead} is true when it comes from a full Task read with
         * GetTask (or ListTasks): then it is settled, and a running state means following the task.
         * From a stream, only a full Task settles; an update's end state waits for the stream's end.
         */
        void status(Turn turn, TaskStatus status, boolean fromRead) {
            TaskState state = status.state();
            boolean settled = turn.lastEventWasTask || fromRead;
            if (state != TaskState.INPUT_REQUIRED) {
                turn.answerPending = false; // the agent moved past the question
            }
            if (state != TaskState.INPUT_REQUIRED || !settled) {
                record(turn, status);
            }
            switch (state) {
                case SUBMITTED, WORKING -> {
                    // Task states: shows the turn as running
                    view(turn, TurnView.RUNNING);
                    if (fromRead) {
                        follow(turn);
                    }
                }
                case COMPLETED -> {
                    if (settled) {
                        complete(turn);
                    } else {
                        view(turn, TurnView.RUNNING);
                    }
                }
                case INPUT_REQUIRED -> {
                    if (settled) {
                        question(turn, status, fromRead);
                    } else {
                        view(turn, TurnView.RUNNING);
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
                    if (settled) {
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

        void record(Turn turn, TaskStatus status) {
            turn.lastState = status.state();
            if (status.timestamp() != null) {
                turn.lastStatusTimestamp = status.timestamp();
            }
        }

        /** Task states, completed: ends the turn; a notice only when there was no artifact text. */
        void complete(Turn turn) {
            if (turn.answer().isEmpty()) {
                effects.add(new Effect.PostNotice(turn.messageId, Notices.NO_OUTPUT));
            }
            done(turn, Outcome.COMPLETED, TurnView.COMPLETED);
        }

        /** Task states: failed (with its category), rejected and canceled end the turn with a notice. */
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
         * shown: the task is cancelled and the thread told. A question the Binding does not allow is
         * cancelled too.
         */
        void question(Turn turn, TaskStatus status, boolean fromRead) {
            Message message = status.message();
            if (sameQuestion(status)) {
                if (turn.answerPending && !fromRead) {
                    return; // the snapshot that opens the answer's stream: old news (the lead's call)
                }
                record(turn, status);
                cancel(turn, Notices.QUESTION_UNSHOWABLE, Outcome.CANCELED);
                return;
            }
            record(turn, status);
            turn.answerPending = false;
            if (!showable(message)) {
                cancel(turn, Notices.QUESTION_UNSHOWABLE, Outcome.CANCELED);
                return;
            }
            if (!session.questionsAllowed) {
                cancel(turn, Notices.QUESTION_NOT_ALLOWED, Outcome.CANCELED);
                return;
            }
            session.questionAsked = true;
            session.lastQuestionMessageId = message.messageId();
            session.lastQuestionTimestamp = status.timestamp();
            turn.phase = Phase.PAUSED_INPUT;
            view(turn, TurnView.WAITING_FOR_ANSWER);
            long gen = nextGen();
            effects.add(new Effect.CloseStream());
            effects.add(new Effect.AskQuestion(turn.messageId, questionText(message)));
            if (session.questionTimeout != null) {
                turn.questionDeadline = now.plus(session.questionTimeout);
                effects.add(new Effect.ScheduleTimer(gen, turn.questionDeadline));
            }
        }

        /** Questions: the status is the question last asked (same messageId and same status timestamp). */
        boolean sameQuestion(TaskStatus status) {
            return status.state() == TaskState.INPUT_REQUIRED && session.questionAsked
                    && Objects.equals(session.lastQuestionMessageId, status.message() == null ? null : status.message().messageId())
                    && Objects.equals(session.lastQuestionTimestamp, status.timestamp());
        }

        /** Questions: only text parts, none of them empty. */
        boolean showable(Message message) {
            return message != null && !message.parts().isEmpty() && message.parts().stream()
                    .allMatch(p -> p instanceof Part.Text t && t.text() != null && !t.text().isEmpty());
        }

        String questionText(Message message) {
            List<String> lines = new ArrayList<>();
            for (Part p : message.parts()) {
                lines.add(((Part.Text) p).text());
            }
            return String.join("\n", lines);
        }

        // ================= Errors =================

        void failed(Turn turn, Input.CallFailed f) {
            CallFailure failure = f.failure();
            // Errors: HTTP 401 or 403 at any call fails the turn without a retry, and is counted
            if (failure instanceof CallFailure.HttpStatus h && (h.status() == 401 || h.status() == 403)) {
                effects.add(new Effect.CountCredentialRejection());
                if (turn.phase == Phase.CANCELLING) {
                    cancelFailedForGood(turn);
                } else {
                    notDelivered(turn, Notices.CREDENTIALS_REJECTED);
                }
                return;
            }
            int rpc = failure instanceof CallFailure.RpcError r ? r.code() : 0;
            if (rpc == MINUS_31403) {
                // Errors: the identity is refused for this session: the turn fails
                if (turn.phase == Phase.CANCELLING) {
                    cancelFailedForGood(turn);
                } else {
                    notDelivered(turn, Notices.IDENTITY_REFUSED);
                }
                return;
            }
            if (turn.phase == Phase.CANCELLING) {
                cancelCallFailed(turn, f.call(), rpc);
                return;
            }
            switch (f.call()) {
                case CARD -> retryWithin(turn, Turn.Next.FETCH_CARD, failure, Notices.unreachable());
                case SEND -> sendFailed(turn, f, rpc);
                case GET_TASK -> {
                    if (rpc == JsonRpcError.TASK_NOT_FOUND) {
                        sessionGone(turn);
                    } else {
                        poll(turn, failure);
                    }
                }
                case SUBSCRIBE -> {
                    if (rpc == JsonRpcError.TASK_NOT_FOUND) {
                        sessionGone(turn);
                    } else if (f.afterEvents()) {
                        lost(turn);
                    } else {
                        // Methods, SubscribeToTask: without a subscription, GetTask with a backoff of up to a minute
                        if (rpc == JsonRpcError.METHOD_NOT_FOUND) {
                            turn.subscribeUnsupported = true;
                        }
                        poll(turn, failure);
                    }
                }
                case LIST_TASKS -> retryWithin(turn, Turn.Next.LOOKUP, failure, Notices.unreachable());
                case CANCEL -> { } // only while cancelling, above
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
                turn.answerPending = false;
                cancel(turn, Notices.ANSWER_REJECTED, Outcome.CANCELED); // Errors: the answer is rejected
                return;
            }
            if (failure instanceof CallFailure.HttpStatus h && h.status() >= 300 && h.status() < 500
                    && h.status() != 408 && h.status() != 429) {
                // Errors: another 4xx before any event: not sent; retried, then failed after 15 minutes.
                // Discovery: a 3xx is a failed call (no redirect is followed); nothing reached the agent either.
                retryWithin(turn, Turn.Next.SEND, failure, Notices.refused("the agent did not accept it"));
                return;
            }
            if (failure instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.CONNECT) {
                // nothing reached the agent: resend without a lookup (the lead's call)
                retryWithin(turn, Turn.Next.SEND, failure, Notices.unreachable());
                return;
            }
            // Errors: 5xx (and 408, 429), a dropped connection or no headers in 30 s before any event:
            // the outcome is unknown
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
            waitThen(turn, Turn.Next.SEND, delay);
            Instant noticeAt = busyNoticeAt(turn);
            if (noticeAt != null && noticeAt.isAfter(now) && noticeAt.isBefore(turn.waitUntil)) {
                // wake up in time to tell the thread; the resend keeps its own time (a Retry-After, say)
                effects.add(new Effect.ScheduleTimer(session.gen, noticeAt));
            }
            noticeBusyIfDue(turn);
        }

        /** When the thread is to be told that the agent is busy; null when it was told, or nothing is busy. */
        Instant busyNoticeAt(Turn turn) {
            return turn.busySince == null || turn.busyNoticed ? null : turn.busySince.plus(d.busyNoticeAfter());
        }

        void noticeBusyIfDue(Turn turn) {
            Instant at = busyNoticeAt(turn);
            if (at != null && !now.isBefore(at)) {
                tellBusy(turn);
            }
        }

        /** Errors, -32004: the thread is told once, after 2 minutes of refusals. */
        void tellBusy(Turn turn) {
            turn.busyNoticed = true;
            effects.add(new Effect.PostNotice(turn.messageId, Notices.BUSY));
        }

        /**
         * The outcome of a send is unknown: it is looked up, then sent again, until 15 minutes have
         * passed; then the turn fails with "the agent could not be reached".
         */
        void unknownOutcome(Turn turn, CallFailure failure) {
            if (turn.troubleSince == null) {
                turn.troubleSince = now;
            }
            if (giveUp(turn, Notices.unreachable())) {
                return;
            }
            turn.retryAttempt++;
            view(turn, TurnView.RETRYING);
            Duration delay = d.delay(turn.retryAttempt, d.retryBackoffMax(), failure == null ? null : failure.retryAfter());
            waitUntil(turn, Turn.Next.LOOKUP, now.plus(delay));
        }

        /**
         * Methods, ListTasks: before a turn of unknown outcome is sent again into an existing context
         * (1.0 only); a thread's first turn, and every 0.3 turn, is simply sent again. An answer's
         * paused task is known: it is read with GetTask, and the answer sent again only if the task
         * still asks.
         */
        void lookup(Turn turn) {
            if (turn.answerMessageId != null && turn.taskId != null) {
                readTask(turn);
            } else if (session.agentVersion == ProtocolVersion.V1_0 && session.contextId != null) {
                turn.phase = Phase.LISTING;
                turn.listPages = 0;
                view(turn, TurnView.RETRYING);
                effects.add(new Effect.ListTasks(nextGen(), session.contextId, null));
            } else if (!Objects.equals(session.currentFingerprint, session.cardFingerprint)) {
                begin(turn);
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
            // Errors: a Retry-After is honoured on reconnects, up to a day
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
            if (turn.answerPending && !turn.answerSent) {
                replyIsNotAnAnswer(turn); // the typed reply was never sent: it starts the new context
            }
            effects.add(new Effect.PostNotice(turn.messageId, Notices.SESSION_GONE));
            done(turn, Outcome.NOT_DELIVERED, TurnView.FAILED);
        }

        // ================= following a task =================

        /**
         * Replies: a dropped stream is settled (or followed again) by GetTask after a second. A lost
         * subscription backs off while the task shows no change, so a task whose subscriptions keep
         * ending is not read every second.
         */
        void lost(Turn turn) {
            if (turn.streamLostAt == null) {
                turn.streamLostAt = now;
            }
            if (turn.subscribed) {
                poll(turn, null);
            } else {
                waitThen(turn, Turn.Next.GET_TASK, d.settleDelay());
            }
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
                poll(turn, null);
                return;
            }
            boolean moved = changed(turn, task);
            if (moved) {
                turn.lastSignOfLife = now;
                turn.pollAttempt = 0;
            }
            if (task.contextId() != null) {
                adoptContext(turn, task.contextId());
            }
            if (turn.phase == Phase.CANCELLING) {
                cancelChecked(turn, task);
                return;
            }
            if (lifeless(turn, task.state())) {
                // Methods, CancelTask: no sign of life for an hour after the stream was lost
                cancel(turn, Notices.NO_SIGN_OF_LIFE, Outcome.CANCELED);
                return;
            }
            if (turn.answerPending && sameQuestion(task.status())) {
                answerStillWanted(turn);
                return;
            }
            if (turn.answerPending && !turn.answerSent) {
                replyIsNotAnAnswer(turn); // Task states / Methods: the agent has moved on; follow it
            }
            if (task.artifacts() != null) {
                replaceArtifacts(turn, task.artifacts());
            }
            turn.lastEventWasTask = true;
            if (task.state() == TaskState.AUTH_REQUIRED && turn.lastState == TaskState.AUTH_REQUIRED && !moved) {
                turn.phase = Phase.PAUSED_AUTH; // still paused: the typed reply keeps waiting
                return;
            }
            status(turn, task.status(), true);
        }

        /** A task the stream lost, in a running state, silent for an hour. */
        boolean lifeless(Turn turn, TaskState state) {
            if (turn.streamLostAt == null || state == null || state.isTerminal() || state.isInterrupted()) {
                return false;
            }
            Instant quietSince = turn.lastSignOfLife == null || turn.lastSignOfLife.isBefore(turn.streamLostAt)
                    ? turn.streamLostAt : turn.lastSignOfLife;
            return !now.isBefore(quietSince.plus(d.noSignOfLife()));
        }

        /** Methods: a running task read with GetTask is followed with SubscribeToTask, or polled without it. */
        void follow(Turn turn) {
            if (turn.subscribeUnsupported) {
                poll(turn, null);
            } else {
                subscribe(turn);
            }
        }

        /** Methods, SubscribeToTask: after a dropped stream, when GetTask shows the task still running. */
        void subscribe(Turn turn) {
            turn.phase = Phase.SUBSCRIBING;
            openCall(turn, true);
            view(turn, TurnView.RUNNING);
            long gen = nextGen();
            effects.add(new Effect.Subscribe(gen, turn.taskId));
            armSilence(turn, gen);
        }

        /** GetTask again with a backoff of up to a minute (or the agent's Retry-After). */
        void poll(Turn turn, CallFailure failure) {
            if (turn.streamLostAt == null) {
                turn.streamLostAt = now;
            }
            if (lifeless(turn, turn.lastState)) {
                cancel(turn, Notices.NO_SIGN_OF_LIFE, Outcome.CANCELED);
                return;
            }
            turn.pollAttempt++;
            Duration retryAfter = failure == null ? null : failure.retryAfter();
            waitThen(turn, Turn.Next.GET_TASK, d.delay(turn.pollAttempt, d.pollBackoffMax(), retryAfter));
        }

        // ================= timers =================

        /** Replies: no event for 5 minutes cuts the stream; the task is followed again. */
        void armSilence(Turn turn, long gen) {
            turn.silenceDeadline = now.plus(d.silenceLimit());
            effects.add(new Effect.ScheduleTimer(gen, turn.silenceDeadline));
        }

        /** A timer that is not yet due (pushed back, or fired a little early) is set again for its deadline. */
        void timer(Turn turn) {
            switch (turn.phase) {
                case SENDING, STREAMING, SUBSCRIBING -> {
                    if (due(turn.silenceDeadline)) {
                        silence(turn);
                    } else {
                        rearm(turn.silenceDeadline);
                    }
                }
                case PAUSED_INPUT -> {
                    if (turn.questionDeadline == null) {
                        return;
                    }
                    if (due(turn.questionDeadline)) {
                        // Methods, CancelTask: when a question times out
                        cancel(turn, Notices.QUESTION_TIMED_OUT, Outcome.CANCELED);
                    } else {
                        rearm(turn.questionDeadline);
                    }
                }
                case WAITING -> {
                    noticeBusyIfDue(turn);
                    if (due(turn.waitUntil)) {
                        wake(turn);
                    } else {
                        Instant noticeAt = busyNoticeAt(turn);
                        rearm(noticeAt != null && noticeAt.isBefore(turn.waitUntil) ? noticeAt : turn.waitUntil);
                    }
                }
                default -> { }
            }
        }

        boolean due(Instant deadline) {
            return deadline == null || !now.isBefore(deadline);
        }

        void rearm(Instant at) {
            effects.add(new Effect.ScheduleTimer(session.gen, at));
        }

        /** Replies: the stream is cut and the task followed again with GetTask and SubscribeToTask. */
        void silence(Turn turn) {
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
                    if (turn.answerMessageId != null) {
                        sendAnswer(turn);
                    } else {
                        begin(turn);
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

        void cancelled(Turn turn) {
            if (turn.phase == Phase.CANCELLING) {
                done(turn, cancelOutcome(turn), TurnView.CANCELED);
            }
        }

        /**
         * Methods, GetTask: when a cancel fails, the task is read; a task that has ended needs no
         * cancel. A task that is gone (-32001) has nothing left to cancel either.
         */
        void cancelCallFailed(Turn turn, Input.Call call, int rpc) {
            if (rpc == JsonRpcError.TASK_NOT_FOUND) {
                done(turn, cancelOutcome(turn), TurnView.CANCELED);
            } else if (call == Input.Call.CANCEL) {
                effects.add(new Effect.GetTask(nextGen(), turn.taskId));
            } else {
                retryCancel(turn); // the read failed too
            }
        }

        void cancelChecked(Turn turn, Task task) {
            if (task.state().isTerminal()) {
                done(turn, cancelOutcome(turn), TurnView.CANCELED);
            } else {
                retryCancel(turn);
            }
        }

        /** Methods, CancelTask: retried a few times, then reported as failed; the task keeps running. */
        void retryCancel(Turn turn) {
            if (turn.cancelAttempts < d.cancelAttempts()) {
                waitThen(turn, Turn.Next.CANCEL, ContractDurations.backoff(turn.cancelAttempts, d.retryBackoffMax()));
                return;
            }
            cancelFailedForGood(turn);
        }

        void cancelFailedForGood(Turn turn) {
            effects.add(new Effect.PostNotice(turn.messageId, Notices.CANCEL_FAILED));
            done(turn, cancelOutcome(turn), TurnView.CANCELED);
        }

        Outcome cancelOutcome(Turn turn) {
            return turn.cancelOutcome == null ? Outcome.CANCELED : turn.cancelOutcome;
        }

        // ================= restart =================

        /**
         * B14: unfinished turns are recovered as the seed says. Methods, GetTask: before following a
         * task after a restart. Methods, ListTasks: on recovery after a restart, for a turn whose
         * outcome is unknown (1.0 with a context; otherwise it is sent again). Queued turns wait.
         */
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
                case SENDING, STREAMING, SUBSCRIBING, READING_TASK, LISTING -> {
                    if (turn.taskId != null) {
                        readTask(turn);
                    } else {
                        if (turn.troubleSince == null) {
                            turn.troubleSince = now;
                        }
                        lookup(turn);
                    }
                }
                case WAITING -> {
                    long gen = nextGen();
                    effects.add(new Effect.ScheduleTimer(gen, notBefore(turn.waitUntil)));
                    Instant noticeAt = busyNoticeAt(turn);
                    if (noticeAt != null && turn.waitUntil != null && noticeAt.isBefore(turn.waitUntil)) {
                        effects.add(new Effect.ScheduleTimer(gen, notBefore(noticeAt)));
                    }
                }
                case PAUSED_INPUT -> {
                    if (turn.questionDeadline != null) {
                        effects.add(new Effect.ScheduleTimer(nextGen(), notBefore(turn.questionDeadline)));
                    }
                }
                case CANCELLING -> issueCancel(turn);
                default -> { }
            }
        }

        Instant notBefore(Instant at) {
            return at == null || at.isBefore(now) ? now : at;
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
