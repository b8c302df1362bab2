package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.protocol.kagent.Hitl;

/**
 * A person's message for a thread, as the driver takes it: a plain message ({@code questionId} and {@code answer}
 * null), or a structured answer to the question post {@code questionId}.
 *
 * @param trace the W3C trace context it came with (TraceContext's form); null: the turn starts a trace of its own
 */
record Incoming(String messageId, String text, Actor actor, String trace, String questionId, Hitl.Answer answer) {

    static Incoming message(String messageId, String text, Actor actor, String trace) {
        return new Incoming(messageId, text, actor, trace, null, null);
    }

    static Incoming answer(String messageId, String questionId, Hitl.Answer answer, String text, Actor actor) {
        return new Incoming(messageId, text, actor, null, questionId, answer);
    }

    boolean isAnswer() {
        return questionId != null;
    }
}
