package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.model.AgentExtension;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.TaskState;
import io.vertx.core.MultiMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * kagent's human-in-the-loop extension ({@code hitl/v1}) as the testkit speaks it: the requests an agent pauses
 * with, and the checks a structured answer must pass before the paused task goes on. The shapes and the error
 * texts follow kagent's {@code kagent-core/.../a2a/_hitl.py} and {@code go/adk/pkg/a2a/hitl.go} (see the README
 * next to the {@link KagentVectors}); the code is the testkit's own.
 *
 * <p>kagent refuses a bad decision by failing the task, not with a JSON-RPC error, so {@link #resume} answers
 * with a script either way: the continuation, or a failed status naming the problem.
 */
public final class KagentHitl {

    /** The extension's URI, on the card, in the {@value #HEADER} header, and in messages' {@code extensions}. */
    public static final String URI = "https://kagent.dev/extensions/hitl/v1";

    /** The request header a client opts in with; the agent echoes the activated URI in the same response header. */
    public static final String HEADER = "A2A-Extensions";

    /** kagent's text for a pause a client without the extension can read (kagent-adk {@code _hitl.py}). */
    public static final String DEFAULT_HINT = "Human input is required before the agent can continue.";

    /** The card's {@code capabilities.extensions} entry, as kagent's Go ADK and Python helper add it. */
    public static AgentExtension cardExtension() {
        return new AgentExtension(URI, "Human in the loop for tool approval, ask user, and nested subagents", false, null);
    }

    /**
     * True when a header value names exactly {@link #URI}: the header name is matched case-insensitively and each
     * value is split on commas, as kagent's {@code hitl_activated} does; {@code .../hitl/v2} does not count.
     */
    public static boolean requested(MultiMap headers) {
        for (String value : headers.getAll(HEADER)) {
            for (String uri : value.split(",")) {
                if (uri.strip().equals(URI)) {
                    return true;
                }
            }
        }
        return false;
    }

    private KagentHitl() {}

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** One tool as a request lists it; {@code id} is the opaque resume token, {@code callId} the model's call id. */
    record Tool(String id, String callId, String name, ObjectNode args) {
        static Tool of(String name, ObjectNode args) {
            return new Tool("adk-" + UUID.randomUUID(), "call-" + UUID.randomUUID(), name, args == null ? JSON.objectNode() : args);
        }

        ObjectNode json() {
            ObjectNode tool = JSON.objectNode().put("id", id).put("call_id", callId).put("name", name);
            tool.set("args", args.deepCopy());
            return tool;
        }
    }

    static ObjectNode approvalRequest(String hint, List<Tool> tools) {
        ObjectNode request = JSON.objectNode().put("type", "tool_approval_request").put("hint", hint);
        ArrayNode list = request.putArray("tools");
        tools.forEach(t -> list.add(t.json()));
        return request;
    }

    /** A parent paused because its subagent did: the parent's remote-agent tool, and the child's tools in {@code nested}. */
    static ObjectNode nestedApprovalRequest(String subagent, Tool parent, List<Tool> childTools) {
        ObjectNode request = approvalRequest("Remote agent '" + subagent + "' requires approval for tool(s): "
                + String.join(", ", childTools.stream().map(Tool::name).toList()), List.of(parent));
        ObjectNode nested = request.putObject("nested").put("subagent_name", subagent)
                .put("task_id", "child-task-" + UUID.randomUUID()).put("context_id", "child-ctx-" + UUID.randomUUID());
        ArrayNode list = nested.putArray("tools");
        childTools.forEach(t -> list.add(t.json()));
        return request;
    }

    /** Two questions, one single choice and one multiple choice, as kagent's built-in ask_user tool asks them. */
    static ObjectNode askUserRequest() {
        ObjectNode request = JSON.objectNode().put("type", "ask_user_request").put("id", "adk-" + UUID.randomUUID());
        ArrayNode questions = request.putArray("questions");
        question(questions, "Which namespace should I use?", false, "dev", "staging", "production");
        question(questions, "Which checks should run?", true, "lint", "unit", "e2e");
        return request;
    }

    private static void question(ArrayNode questions, String question, boolean multiple, String... choices) {
        ObjectNode q = questions.addObject().put("question", question);
        ArrayNode list = q.putArray("choices");
        for (String choice : choices) {
            list.add(choice);
        }
        q.put("multiple", multiple);
    }

    /** The display text of a pause: the hint, or for ask-user the questions. */
    static String displayText(ObjectNode request) {
        if ("ask_user_request".equals(request.path("type").asText())) {
            List<String> questions = new ArrayList<>();
            request.path("questions").forEach(q -> questions.add(q.path("question").asText()));
            return String.join("\n", questions);
        }
        return request.path("hint").asText(DEFAULT_HINT);
    }

    /** A function_call step-card part, typed in its metadata with {@code <prefix>type}, as kagent's part converter does. */
    static Part functionCall(String prefix, String id, String name, JsonNode args) {
        ObjectNode data = JSON.objectNode().put("id", id).put("name", name);
        data.set("args", args.deepCopy());
        return new Part.Data(data, null, null, JSON.objectNode().put(prefix + "type", "function_call"));
    }

    /** A function_response step-card part: {@code {id, name, response:{result, isError}}}. */
    static Part functionResponse(String prefix, String id, String name, String result, boolean isError) {
        ObjectNode data = JSON.objectNode().put("id", id).put("name", name);
        data.putObject("response").put("result", result).put("isError", isError);
        return new Part.Data(data, null, null, JSON.objectNode().put(prefix + "type", "function_response"));
    }

    /**
     * What a paused task does with {@code answer}: checks it against the stored {@code request} as kagent's
     * executors do, then runs the approved tools and completes; or fails the task with kagent's error text.
     *
     * @param activated whether the answering call carried the {@value #HEADER} header (the Go ADK ignores a
     *     decision on a call that did not)
     */
    static Script resume(ObjectNode request, Message answer, boolean activated) {
        try {
            JsonNode payload = payload(answer, activated);
            return "ask_user_request".equals(request.path("type").asText())
                    ? answered(request, payload)
                    : decided(request, payload);
        } catch (IllegalArgumentException refused) {
            return new Script(List.of(new Script.SetStatus(TaskState.FAILED, refused.getMessage(), null)));
        }
    }

    /**
     * The decision payload; a message without it is no decision. kagent's executors hand such a message to the
     * model as ordinary input; the testkit fails the task instead, so a client that forgets the extension is caught.
     */
    private static JsonNode payload(Message answer, boolean activated) {
        if (!activated) {
            throw new IllegalArgumentException("message does not contain a HITL response: the call did not send "
                    + HEADER + ": " + URI);
        }
        if (!answer.extensions().contains(URI)) {
            throw new IllegalArgumentException("message does not contain a HITL response: the message does not list "
                    + URI + " in its extensions");
        }
        JsonNode payload = answer.metadata() == null ? null : answer.metadata().get(URI);
        if (payload == null || !payload.isObject() || !payload.path("type").isTextual()) {
            throw new IllegalArgumentException("message does not contain a HITL response: metadata[\"" + URI
                    + "\"] holds no object with a type");
        }
        return payload;
    }

    /** A tool-approval decision: every visible id (the nested tools' when nested) exactly once. */
    private static Script decided(ObjectNode request, JsonNode payload) {
        JsonNode nested = request.get("nested");
        JsonNode tools = nested != null ? nested.path("tools") : request.path("tools");
        if (!wellFormedApprovals(payload)) {
            throw new IllegalArgumentException("Tool approval request requires a tool approval response");
        }
        Map<String, JsonNode> approvals = new LinkedHashMap<>();
        for (JsonNode approval : payload.path("approvals")) {
            approvals.put(approval.path("id").asText(), approval);
        }
        if (approvals.size() != payload.path("approvals").size()) {
            throw new IllegalArgumentException("Tool approval response contains duplicate ids");
        }
        Set<String> requested = new TreeSet<>();
        tools.forEach(t -> requested.add(t.path("id").asText()));
        Set<String> missing = new TreeSet<>(requested);
        missing.removeAll(approvals.keySet());
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("Tool approval response is missing ids: " + String.join(", ", missing));
        }
        Set<String> unknown = new TreeSet<>(approvals.keySet());
        unknown.removeAll(requested);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Tool approval response contains unknown ids: " + String.join(", ", unknown));
        }
        List<Script.Step> steps = new ArrayList<>(List.of(Script.SetStatus.of(TaskState.WORKING)));
        List<String> lines = new ArrayList<>();
        for (JsonNode tool : tools) {
            JsonNode approval = approvals.get(tool.path("id").asText());
            String name = tool.path("name").asText();
            if (approval.path("approved").asBoolean()) {
                String callId = tool.path("call_id").asText();
                JsonNode args = tool.path("args").isObject() ? tool.get("args") : JSON.objectNode();
                steps.add(new Script.SetStatusParts(TaskState.WORKING, List.of(functionCall("kagent_", callId, name, args))));
                steps.add(new Script.SetStatusParts(TaskState.WORKING,
                        List.of(functionResponse("kagent_", callId, name, "done", false))));
                lines.add("approved " + name + ": done");
            } else {
                String reason = approval.path("rejection_reason").asText("");
                lines.add("rejected " + name + ": " + (reason.isBlank() ? "no reason given" : reason));
            }
        }
        steps.add(new Script.AddChunk(String.join("\n", lines), false, true));
        steps.add(Script.SetStatus.of(TaskState.COMPLETED));
        return new Script(steps);
    }

    /** kagent's models forbid unknown fields: {@code {type, approvals:[{id, approved, rejection_reason?}]}}, at least one. */
    private static boolean wellFormedApprovals(JsonNode payload) {
        if (!"tool_approval_response".equals(payload.path("type").asText()) || !onlyFields(payload, "type", "approvals")) {
            return false;
        }
        JsonNode approvals = payload.path("approvals");
        if (!approvals.isArray() || approvals.isEmpty()) {
            return false;
        }
        for (JsonNode approval : approvals) {
            JsonNode reason = approval.path("rejection_reason");
            if (!approval.isObject() || !onlyFields(approval, "id", "approved", "rejection_reason")
                    || !approval.path("id").isTextual() || approval.path("id").asText().isEmpty()
                    || !approval.path("approved").isBoolean() || !(reason.isMissingNode() || reason.isNull() || reason.isTextual())) {
                return false;
            }
        }
        return true;
    }

    /** An ask-user answer: the request's id, one {@code {answer:[…]}} per question, in order. */
    private static Script answered(ObjectNode request, JsonNode payload) {
        boolean wellFormed = "ask_user_response".equals(payload.path("type").asText())
                && onlyFields(payload, "type", "id", "answers") && payload.path("id").isTextual();
        JsonNode answers = payload.path("answers");
        if (wellFormed && !answers.isMissingNode() && !answers.isNull()) {
            wellFormed = answers.isArray();
            for (JsonNode answer : answers) {
                wellFormed &= answer.isObject() && onlyFields(answer, "answer") && answer.path("answer").isArray();
                for (JsonNode value : answer.path("answer")) {
                    wellFormed &= value.isTextual();
                }
            }
        }
        if (!wellFormed || !payload.path("id").asText().equals(request.path("id").asText())) {
            throw new IllegalArgumentException("ask_user response has invalid correlation");
        }
        if (!answers.isArray() || answers.isEmpty()) {
            throw new IllegalArgumentException("ask_user response contains no answers");
        }
        JsonNode questions = request.path("questions");
        if (answers.size() != questions.size()) {
            throw new IllegalArgumentException("ask_user response must answer every question");
        }
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
            List<String> chosen = new ArrayList<>();
            answers.get(i).path("answer").forEach(a -> chosen.add(a.asText()));
            lines.add(questions.get(i).path("question").asText() + " " + String.join(", ", chosen));
        }
        return new Script(List.of(Script.SetStatus.of(TaskState.WORKING),
                new Script.AddChunk(String.join("\n", lines), false, true), Script.SetStatus.of(TaskState.COMPLETED)));
    }

    private static boolean onlyFields(JsonNode object, String... allowed) {
        Set<String> names = Set.of(allowed);
        for (Iterator<String> fields = object.fieldNames(); fields.hasNext(); ) {
            if (!names.contains(fields.next())) {
                return false;
            }
        }
        return true;
    }
}
