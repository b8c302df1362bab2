package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Seed: the "question on a2a" paragraph under Task states (input-required), with What is sent for
 * the answer, and its kagent-v1 sentence: the question is kagent's human-in-the-loop payload, and the answer a
 * structured one with no prefix. What counts as a question, how it is shown, and how its answer reaches the agent.
 */
final class Questions {

    private Questions() {}

    /**
     * A status message made only of non-empty text parts, with a messageId or status timestamp that
     * differs from the last question's. Anything else in input-required cannot be shown: the task is
     * cancelled and the thread told. A question the Binding does not allow is cancelled too.
     */
    static void question(Step s, TaskStatus status, boolean fromRead) {
        Message message = status.message();
        if (sameQuestion(s.session(), status)) {
            if (s.turn().question().answerPending() && !fromRead) {
                return; // the snapshot that opens the answer's stream: old news (the lead's call)
            }
            TaskStates.record(s, status);
            Cancels.cancel(s, Notices.QUESTION_UNSHOWABLE, Outcome.CANCELED);
            return;
        }
        TaskStates.record(s, status);
        s.question(q -> q.withAnswerPending(false));
        // kagent-v1: the question is kagent's human-in-the-loop payload in the status message's metadata; its text
        // part is for display only. Without the payload (the extension not asked for) it is a text question.
        Hitl.Request hitl = s.isA2a() ? null : Hitl.request(message).orElse(null);
        if (hitl == null && !showable(message)) {
            Cancels.cancel(s, Notices.QUESTION_UNSHOWABLE, Outcome.CANCELED);
            return;
        }
        if (!s.session().questionsAllowed()) {
            Cancels.cancel(s, Notices.QUESTION_NOT_ALLOWED, Outcome.CANCELED);
            return;
        }
        s.session(x -> x.withLastQuestion(new Session.LastQuestion(message.messageId(), status.timestamp())));
        s.phase(Phase.PAUSED_INPUT);
        s.view(TurnView.WAITING_FOR_ANSWER);
        long gen = s.nextGen();
        s.emit(new Effect.CloseStream());
        String stored = hitl == null ? null : Hitl.write(hitl);
        s.question(q -> q.withHitlRequest(stored).withHitlAnswer(null));
        s.emit(new Effect.AskQuestion(s.turn().messageId(), hitl == null ? questionText(message) : hitlText(hitl), stored));
        if (s.session().questionTimeout() != null) {
            Instant deadline = s.now.plus(s.session().questionTimeout());
            s.question(q -> q.withDeadline(deadline));
            s.emit(new Effect.ScheduleTimer(gen, deadline));
        }
    }

    /** The status is the question last asked (same messageId and same status timestamp). */
    static boolean sameQuestion(Session session, TaskStatus status) {
        Session.LastQuestion last = session.lastQuestion();
        return status.state() == TaskState.INPUT_REQUIRED && last != null
                && Objects.equals(last.messageId(), status.message() == null ? null : status.message().messageId())
                && Objects.equals(last.timestamp(), status.timestamp());
    }

    /** Only text parts, none of them empty. */
    static boolean showable(Message message) {
        return message != null && !message.parts().isEmpty() && message.parts().stream()
                .allMatch(p -> p instanceof Part.Text t && t.text() != null && !t.text().isEmpty());
    }

    /** What a structured request says in words: the hint or kagent's display text, else what it asks. */
    static String hitlText(Hitl.Request request) {
        if (request instanceof Hitl.Request.ToolApproval a) {
            String said = !Step.isBlank(a.hint()) ? a.hint() : a.display();
            if (!Step.isBlank(said)) {
                return said;
            }
            return "Approve " + String.join(", ", a.tools().stream().map(Hitl.Tool::name).toList()) + "?";
        }
        Hitl.Request.AskUser u = (Hitl.Request.AskUser) request;
        return String.join("\n", u.questions().stream().map(Hitl.Question::question).toList());
    }

    static String questionText(Message message) {
        List<String> lines = new ArrayList<>();
        for (Part p : message.parts()) {
            lines.add(((Part.Text) p).text());
        }
        return String.join("\n", lines);
    }

    /**
     * The reply to a question is its answer. Methods, GetTask: on a2a the task is read first, so an
     * answer goes only to a task that still asks the question that was shown.
     */
    static void answer(Step s, Input.ChatMessage m) {
        String request = s.turn().question().hitlRequest();
        String structured = null;
        if (request != null) {
            // kagent-v1: the answer is structured. A typed reply is read the one safe way (Hitl.fromText: only a
            // clear yes approves); one that cannot answer (several questions in one line) waits for the form.
            Hitl.Request r = Hitl.parseRequest(request);
            Hitl.Answer a = m.structured() != null && Hitl.problem(r, m.structured()) == null ? m.structured()
                    : Hitl.fromText(r, m.text());
            if (a == null) {
                s.question(q -> {
                    List<String> ids = new ArrayList<>(q.answerMessageIds());
                    ids.add(m.messageId());
                    return q.withAnswerMessageIds(ids);
                });
                s.emit(new Effect.PostNotice(s.turn().messageId(), Notices.ANSWER_EVERY_QUESTION));
                return;
            }
            structured = Hitl.write(a);
        }
        String answer = structured;
        s.question(q -> {
            List<String> ids = new ArrayList<>(q.answerMessageIds());
            ids.add(m.messageId());
            return new Turn.Question(null, m.messageId(), m.text(), m.actor(), ids, true, false, q.hitlRequest(), answer);
        });
        s.view(TurnView.RUNNING);
        if (s.isA2a()) {
            Following.readTask(s);
        } else {
            sendAnswer(s);
        }
    }

    /** The answer is one text part, to the paused taskId and contextId, with its own messageId. */
    static void sendAnswer(Step s) {
        s.phase(Phase.SENDING);
        Sends.openCall(s, false);
        s.question(q -> q.withAnswerSent(true).withDeadline(null));
        s.view(TurnView.RUNNING);
        Turn t = s.turn();
        Turn.Question q = t.question();
        // a kagent-v1 structured answer carries no prefix and no actor: kagent reads the decision from its metadata
        Message message = q.hitlAnswer() != null && q.hitlRequest() != null
                ? Hitl.answer(q.answerMessageId(), t.taskId(), s.session().contextId(), Hitl.parseRequest(q.hitlRequest()),
                        Hitl.parseAnswer(q.hitlAnswer()))
                : Message.userText(q.answerMessageId(), Sends.prefixed(s, q.answerActor(), q.answerText()),
                        s.session().contextId(), t.taskId(), Sends.actorMetadata(q.answerActor()));
        long gen = s.nextGen();
        s.emit(new Effect.SendStream(gen, message));
        Timers.armSilence(s, gen);
    }

    /** The agent did not take the answer (the task still asks the same question): it is sent again. */
    static void answerStillWanted(Step s) {
        if (!s.turn().question().answerSent()) {
            sendAnswer(s);
            return;
        }
        if (s.turn().retries().troubleSince() == null) {
            s.retries(r -> r.withTroubleSince(s.now));
        }
        if (!Errors.giveUp(s, Notices.unreachable())) {
            sendAnswer(s);
        }
    }

    /**
     * The agent moved on before a typed reply could answer its question: the reply is not an answer
     * but a turn of its own, queued behind the task (nothing a person wrote is lost).
     */
    static void replyIsNotAnAnswer(Step s) {
        Turn.Question q = s.turn().question();
        Turn reply = Turn.accepted(q.answerMessageId(), q.answerText(), q.answerActor(), s.now);
        List<String> ids = new ArrayList<>(q.answerMessageIds());
        ids.remove(q.answerMessageId());
        s.question(x -> x.withAnswerMessageIds(ids).withAnswerMessageId(null).withAnswerText(null)
                .withAnswerActor(null).withAnswerPending(false));
        s.insert(1, reply);
        s.view(1, TurnView.QUEUED);
    }
}
