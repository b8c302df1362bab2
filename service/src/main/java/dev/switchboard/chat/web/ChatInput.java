package dev.switchboard.chat.web;

import static dev.switchboard.http.JsonHttp.error;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.http.JsonHttp;
import dev.switchboard.protocol.kagent.Hitl;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What the chat API reads from a POST's body: a person's message, or a structured answer to a kagent question. Each
 * reader answers 400 naming the field a body gets wrong and returns null; the handler then has nothing left to do.
 */
final class ChatInput {

    /** The longest message, reason or set of answers, in characters. */
    static final int MAX_TEXT = 32 * 1024;
    static final Pattern MESSAGE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private ChatInput() {}

    /**
     * A person's message as sent: {@code key} is the caller's {@code messageId} (one of ours when it sent none), an
     * idempotency key only; the message's id is derived from it by {@link WebMessageIds}.
     */
    record Message(String key, String text) {}

    /** An approval's decision or ask-user's answers, to the question post {@code questionId}. */
    record StructuredAnswer(String questionId, Hitl.Answer answer) {}

    /** The body {text, messageId?}. */
    static Message message(RoutingContext ctx) {
        String required = "body: a JSON object {\"text\": …} is required";
        JsonNode body = JsonHttp.body(ctx, required);
        if (body == null) {
            return null;
        }
        if (!body.isObject()) {
            error(ctx.response(), 400, required, "body");
            return null;
        }
        JsonNode text = body.get("text");
        if (text == null || !text.isTextual() || text.asText().isBlank()) {
            error(ctx.response(), 400, "text: a non-empty string is required", "text");
            return null;
        }
        if (text.asText().length() > MAX_TEXT) {
            error(ctx.response(), 400, "text: longer than " + MAX_TEXT + " characters", "text");
            return null;
        }
        JsonNode id = body.get("messageId");
        String messageId;
        if (id == null || id.isNull()) {
            messageId = UUID.randomUUID().toString();
        } else if (!id.isTextual() || !MESSAGE_ID.matcher(id.asText()).matches()) {
            error(ctx.response(), 400, "messageId: 1-128 letters, digits or . _ : -", "messageId");
            return null;
        } else {
            messageId = id.asText();
        }
        return new Message(messageId, text.asText());
    }

    /**
     * {@code {"questionId", "decision": "approve"|"reject", "reason"?}} for an approval, {@code {"questionId",
     * "answers": [...]}} for ask-user (one entry per question: a string, or a list of strings for a question that
     * allows several).
     */
    static StructuredAnswer structuredAnswer(RoutingContext ctx) {
        JsonNode body = JsonHttp.body(ctx, "body: a JSON object {\"questionId\", \"decision\" | \"answers\"} is required");
        if (body == null) {
            return null;
        }
        if (!body.isObject()) {
            error(ctx.response(), 400, "body: a JSON object is required", "body");
            return null;
        }
        JsonNode q = body.get("questionId");
        if (q == null || !q.isTextual() || !MESSAGE_ID.matcher(q.asText()).matches()) {
            error(ctx.response(), 400, "questionId: the question post's id is required", "questionId");
            return null;
        }
        JsonNode decision = body.get("decision");
        JsonNode answers = body.get("answers");
        if ((decision == null) == (answers == null)) {
            error(ctx.response(), 400, "give exactly one of decision (an approval) and answers (ask-user)", "decision");
            return null;
        }
        Hitl.Answer answer = decision != null ? decision(ctx, decision, body.get("reason")) : answers(ctx, answers);
        return answer == null ? null : new StructuredAnswer(q.asText(), answer);
    }

    private static Hitl.Answer decision(RoutingContext ctx, JsonNode decision, JsonNode reason) {
        if (!decision.isTextual() || !(decision.asText().equals("approve") || decision.asText().equals("reject"))) {
            error(ctx.response(), 400, "decision: approve or reject", "decision");
            return null;
        }
        if (reason != null && !reason.isNull() && (!reason.isTextual() || reason.asText().length() > MAX_TEXT)) {
            error(ctx.response(), 400, "reason: a string of at most " + MAX_TEXT + " characters", "reason");
            return null;
        }
        String why = reason == null || reason.isNull() || reason.asText().isBlank() ? null : reason.asText();
        return new Hitl.Answer.Decision(decision.asText().equals("approve"), why);
    }

    private static Hitl.Answer answers(RoutingContext ctx, JsonNode answers) {
        if (!answers.isArray() || answers.isEmpty() || answers.size() > 50) {
            error(ctx.response(), 400, "answers: a list with one entry per question", "answers");
            return null;
        }
        List<List<String>> all = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < answers.size(); i++) {
            List<String> values = strings(answers.get(i));
            if (values == null || values.isEmpty()) {
                error(ctx.response(), 400, "answers[" + i + "]: a string, or a list of strings", "answers");
                return null;
            }
            total += values.stream().mapToInt(String::length).sum();
            all.add(values);
        }
        if (total > MAX_TEXT) {
            error(ctx.response(), 400, "answers: longer than " + MAX_TEXT + " characters in all", "answers");
            return null;
        }
        return new Hitl.Answer.Answers(all);
    }

    /** One question's answer: a string, or a list of at most 50 strings; null when it is neither. */
    private static List<String> strings(JsonNode one) {
        List<String> values = new ArrayList<>();
        if (one.isTextual()) {
            values.add(one.asText());
            return values;
        }
        if (!one.isArray() || one.size() > 50) {
            return null;
        }
        for (JsonNode v : one) {
            if (!v.isTextual()) {
                return null;
            }
            values.add(v.asText());
        }
        return values;
    }

    /** A new thread's title: the first line of its opening message, cut at 80 characters. */
    static String title(String text) {
        String line = text.strip().split("\\R", 2)[0];
        return line.length() > 80 ? line.substring(0, 79) + "…" : line;
    }
}
