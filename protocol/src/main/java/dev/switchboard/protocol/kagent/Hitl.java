package dev.switchboard.protocol.kagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kagent's human-in-the-loop extension, {@code https://kagent.dev/extensions/hitl/v1} (kagent-dev/kagent
 * {@code python/packages/kagent-core/src/kagent/core/a2a/_hitl.py}, {@code go/adk/pkg/a2a/hitl.go},
 * {@code docs/architecture/human-in-the-loop.md}): the request a paused task's status message carries in its metadata
 * under the extension's URI, and the structured answer that resumes it. Values here are plain Java, so the bridge's
 * engine reads and writes them without a JSON library; the JSON lives in this class.
 */
public final class Hitl {

    /** The extension's exact URI: an incompatible change gets a new one, so nothing else matches. */
    public static final String URI = "https://kagent.dev/extensions/hitl/v1";
    /** The request header that activates an extension (A2A 1.0; 0.3 called it X-A2A-Extensions). */
    public static final String HEADER = "A2A-Extensions";

    private Hitl() {}

    /** What a paused kagent task asks. */
    public sealed interface Request {
        /** the text kagent puts beside the payload, for display only */
        String display();

        /** The tools waiting for approval; answered with their {@code id}s (the nested ones when nested). */
        record ToolApproval(String display, String hint, List<Tool> tools, String subagent) implements Request {
            public ToolApproval {
                tools = List.copyOf(tools);
            }
        }

        /** Questions for the person, answered positionally. */
        record AskUser(String display, String id, List<Question> questions) implements Request {
            public AskUser {
                questions = List.copyOf(questions);
            }
        }
    }

    /** A tool call awaiting approval: {@code id} is an opaque resume token, sent back unchanged. */
    public record Tool(String id, String callId, String name, String argsJson) {}

    /** An ask-user question; {@code multiple} allows several of the choices. */
    public record Question(String question, List<String> choices, boolean multiple) {
        public Question {
            choices = List.copyOf(choices);
        }
    }

    /** A person's structured answer. */
    public sealed interface Answer {
        /** Approve or reject every tool of the request (with an optional reason for a rejection). */
        record Decision(boolean approved, String reason) implements Answer {}

        /** One list of answers per question, in the questions' order. */
        record Answers(List<List<String>> answers) implements Answer {
            public Answers {
                answers = answers.stream().map(List::copyOf).toList();
            }
        }
    }

    /** The request in a status message, if it carries one (a message without the payload is plain text). */
    public static Optional<Request> request(Message message) {
        if (message == null || message.metadata() == null) {
            return Optional.empty();
        }
        JsonNode payload = message.metadata().get(URI);
        if (payload == null || !payload.isObject()) {
            return Optional.empty();
        }
        String display = message.text();
        String type = payload.path("type").asText("");
        JsonNode nested = payload.path("nested");
        if (type.equals("tool_approval_request")) {
            // a nested request is answered with the subagent's tools, which are the ones to show
            JsonNode tools = nested.isObject() && nested.path("tools").isArray() ? nested.path("tools") : payload.path("tools");
            List<Tool> list = new ArrayList<>();
            for (JsonNode t : tools) {
                if (!t.path("id").isTextual()) {
                    return Optional.empty();
                }
                JsonNode args = t.path("args");
                list.add(new Tool(t.path("id").asText(), t.path("call_id").asText(null), t.path("name").asText(""),
                        args.isMissingNode() || args.isNull() ? "{}" : Json.write(args)));
            }
            if (list.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Request.ToolApproval(display, payload.path("hint").asText(null), list,
                    nested.isObject() ? nested.path("subagent_name").asText(null) : null));
        }
        if (type.equals("ask_user_request") && payload.path("id").isTextual()) {
            List<Question> questions = new ArrayList<>();
            for (JsonNode q : payload.path("questions")) {
                List<String> choices = new ArrayList<>();
                q.path("choices").forEach(c -> choices.add(c.asText()));
                questions.add(new Question(q.path("question").asText(""), choices, q.path("multiple").asBoolean(false)));
            }
            if (questions.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Request.AskUser(display, payload.path("id").asText(), questions));
        }
        return Optional.empty();
    }

    /**
     * Whether {@code answer} fits {@code request}: a decision answers an approval; answers answer ask-user, one
     * non-empty list per question, a single-choice question with one answer.
     */
    public static String problem(Request request, Answer answer) {
        if (request instanceof Request.ToolApproval) {
            return answer instanceof Answer.Decision ? null : "this question is an approval: answer with a decision";
        }
        Request.AskUser ask = (Request.AskUser) request;
        if (!(answer instanceof Answer.Answers a)) {
            return "this question asks for answers, not a decision";
        }
        if (a.answers().size() != ask.questions().size()) {
            return "answer every question: " + ask.questions().size() + " expected, " + a.answers().size() + " given";
        }
        for (int i = 0; i < a.answers().size(); i++) {
            List<String> given = a.answers().get(i);
            if (given.isEmpty() || given.stream().anyMatch(s -> s == null || s.isBlank())) {
                return "answers[" + i + "] is empty";
            }
            if (!ask.questions().get(i).multiple() && given.size() > 1) {
                return "answers[" + i + "]: the question takes one answer";
            }
        }
        return null;
    }

    /**
     * The message that resumes the paused task: a user message to its taskId and contextId, declaring the extension,
     * with the answer in its metadata and a short label as its one text part (A2A 1.0 needs a part; kagent reads the
     * metadata).
     */
    public static Message answer(String messageId, String taskId, String contextId, Request request, Answer answer) {
        ObjectNode payload = JsonNodeFactory.instance.objectNode();
        String label;
        if (request instanceof Request.ToolApproval approval && answer instanceof Answer.Decision d) {
            payload.put("type", "tool_approval_response");
            ArrayNode approvals = payload.putArray("approvals");
            for (Tool t : approval.tools()) {
                ObjectNode a = approvals.addObject().put("id", t.id()).put("approved", d.approved());
                if (!d.approved() && d.reason() != null && !d.reason().isBlank()) {
                    a.put("rejection_reason", d.reason());
                }
            }
            label = d.approved() ? "Approved" : "Rejected" + (d.reason() == null || d.reason().isBlank() ? "" : ": " + d.reason());
        } else if (request instanceof Request.AskUser ask && answer instanceof Answer.Answers a) {
            payload.put("type", "ask_user_response").put("id", ask.id());
            ArrayNode answers = payload.putArray("answers");
            List<String> shown = new ArrayList<>();
            for (List<String> one : a.answers()) {
                ArrayNode values = answers.addObject().putArray("answer");
                one.forEach(values::add);
                shown.add(String.join(", ", one));
            }
            label = String.join("; ", shown);
        } else {
            throw new IllegalArgumentException(problem(request, answer));
        }
        ObjectNode metadata = JsonNodeFactory.instance.objectNode();
        metadata.set(URI, payload);
        return new Message(messageId, Role.USER, List.of(Part.text(label)), contextId, taskId, metadata, List.of(URI), null);
    }

    /** What an answer says in words: the thread shows it, and the answer message carries it as its text part. */
    public static String label(Answer answer) {
        if (answer instanceof Answer.Decision d) {
            return d.approved() ? "Approved" : "Rejected" + (d.reason() == null || d.reason().isBlank() ? "" : ": " + d.reason());
        }
        return String.join("; ", ((Answer.Answers) answer).answers().stream().map(a -> String.join(", ", a)).toList());
    }

    /** The request as JSON, to be kept with a paused turn and read back by {@link #parseRequest}. */
    public static String write(Request request) {
        ObjectNode n = JsonNodeFactory.instance.objectNode().put("display", request.display());
        if (request instanceof Request.ToolApproval a) {
            n.put("type", "tool_approval").put("hint", a.hint()).put("subagent", a.subagent());
            ArrayNode tools = n.putArray("tools");
            for (Tool t : a.tools()) {
                tools.addObject().put("id", t.id()).put("callId", t.callId()).put("name", t.name()).put("args", t.argsJson());
            }
        } else if (request instanceof Request.AskUser u) {
            n.put("type", "ask_user").put("id", u.id());
            ArrayNode qs = n.putArray("questions");
            for (Question q : u.questions()) {
                ObjectNode o = qs.addObject().put("question", q.question()).put("multiple", q.multiple());
                ArrayNode c = o.putArray("choices");
                q.choices().forEach(c::add);
            }
        }
        return Json.write(n);
    }

    /** An answer as JSON, kept with a paused turn until it is sent; read back by {@link #parseAnswer}. */
    public static String write(Answer answer) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        if (answer instanceof Answer.Decision d) {
            n.put("approved", d.approved()).put("reason", d.reason());
        } else if (answer instanceof Answer.Answers a) {
            ArrayNode all = n.putArray("answers");
            a.answers().forEach(one -> {
                ArrayNode values = all.addArray();
                one.forEach(values::add);
            });
        }
        return Json.write(n);
    }

    public static Answer parseAnswer(String json) {
        JsonNode n = Json.parse(json);
        if (n.has("approved")) {
            return new Answer.Decision(n.path("approved").asBoolean(), n.path("reason").asText(null));
        }
        List<List<String>> all = new ArrayList<>();
        n.path("answers").forEach(one -> {
            List<String> values = new ArrayList<>();
            one.forEach(v -> values.add(v.asText()));
            all.add(values);
        });
        return new Answer.Answers(all);
    }

    /**
     * A typed reply to a question that wants a structured answer, read the one safe way: an approval is approved
     * only by an unmistakable yes ({@code approve}, {@code yes}, {@code ok}, {@code lgtm}, …); any other reply rejects
     * it, with the reply as the reason, so that nothing is approved by accident. An ask-user request of one question
     * takes the reply as its answer; one of several questions cannot be answered in one line (null).
     */
    public static Answer fromText(Request request, String text) {
        String t = text == null ? "" : text.strip();
        if (request instanceof Request.ToolApproval) {
            String word = t.toLowerCase(java.util.Locale.ROOT).replaceAll("[.!]+$", "");
            boolean yes = java.util.Set.of("approve", "approved", "yes", "y", "ok", "okay", "lgtm", "go ahead", "proceed")
                    .contains(word);
            boolean no = java.util.Set.of("reject", "rejected", "no", "n", "deny", "denied", "cancel", "stop").contains(word);
            return yes ? new Answer.Decision(true, null) : new Answer.Decision(false, t.isEmpty() || no ? null : t);
        }
        Request.AskUser ask = (Request.AskUser) request;
        if (ask.questions().size() != 1 || t.isEmpty()) {
            return null;
        }
        return new Answer.Answers(List.of(List.of(t)));
    }

    public static Request parseRequest(String json) {
        JsonNode n = Json.parse(json);
        String display = n.path("display").asText(null);
        if (n.path("type").asText().equals("tool_approval")) {
            List<Tool> tools = new ArrayList<>();
            n.path("tools").forEach(t -> tools.add(new Tool(t.path("id").asText(), t.path("callId").asText(null),
                    t.path("name").asText(), t.path("args").asText("{}"))));
            return new Request.ToolApproval(display, n.path("hint").asText(null), tools, n.path("subagent").asText(null));
        }
        List<Question> qs = new ArrayList<>();
        n.path("questions").forEach(q -> {
            List<String> choices = new ArrayList<>();
            q.path("choices").forEach(c -> choices.add(c.asText()));
            qs.add(new Question(q.path("question").asText(), choices, q.path("multiple").asBoolean()));
        });
        return new Request.AskUser(display, n.path("id").asText(), qs);
    }
}
