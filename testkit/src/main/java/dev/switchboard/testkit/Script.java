package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.TaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The steps a task behaviour takes, as plain data, so the timing-free part of every behaviour can be
 * read (and tested) apart from the timers that play it.
 */
public record Script(List<Step> steps) {

    public Script {
        steps = List.copyOf(steps);
    }

    /** One thing the agent does to its task. */
    public sealed interface Step {}

    /** Moves the task to {@code state}; {@code text} (may be null) becomes the agent's status message. */
    public record SetStatus(TaskState state, String text, ObjectNode metadata) implements Step {
        static SetStatus of(TaskState state) {
            return new SetStatus(state, null, null);
        }
    }

    /** Moves the task to {@code state} with a status message made of exactly these parts. */
    public record SetStatusParts(TaskState state, List<Part> parts) implements Step {
        public SetStatusParts {
            parts = List.copyOf(parts);
        }
    }

    /** Adds an artifact chunk: {@code append} adds to the artifact, otherwise it replaces it. */
    public record AddChunk(String text, boolean append, boolean lastChunk) implements Step {}

    /** Waits before the next step. */
    public record Pause(long millis) implements Step {}

    /**
     * Pauses in input-required with a kagent {@code hitl/v1} {@code request} (tool_approval_request or
     * ask_user_request). Whether the client sees the payload depends on the call that started the step: with the
     * extension activated, the status message carries a display text, {@code extensions:[URI]} and
     * {@code metadata[URI] = request}, and the task waits for a structured answer to it; otherwise the message is
     * kagent's readable text alone, as kagent sends to a client that did not opt in.
     */
    public record HitlPause(ObjectNode request) implements Step {
        public HitlPause {
            request = request.deepCopy();
        }
    }

    static Script echo(String text) {
        return new Script(List.of(
                SetStatus.of(TaskState.WORKING), new AddChunk(text, false, true), SetStatus.of(TaskState.COMPLETED)));
    }

    static Script stream(String text, int chunks, long delayMs) {
        List<Step> steps = new ArrayList<>();
        steps.add(SetStatus.of(TaskState.WORKING));
        List<String> pieces = split(text, chunks);
        for (int i = 0; i < pieces.size(); i++) {
            if (delayMs > 0) {
                steps.add(new Pause(delayMs));
            }
            steps.add(new AddChunk(pieces.get(i), i > 0, i == pieces.size() - 1));
        }
        steps.add(SetStatus.of(TaskState.COMPLETED));
        return new Script(steps);
    }

    static Script slow(String text, long delayMs) {
        return new Script(List.of(SetStatus.of(TaskState.WORKING), new Pause(delayMs),
                new AddChunk(text, false, true), SetStatus.of(TaskState.COMPLETED)));
    }

    static Script ask(String question) {
        return new Script(List.of(SetStatus.of(TaskState.WORKING), new SetStatus(TaskState.INPUT_REQUIRED, question, null)));
    }

    static Script heartbeat(String text, int beats, long intervalMs) {
        List<Step> steps = new ArrayList<>();
        steps.add(SetStatus.of(TaskState.WORKING));
        for (int i = 0; i < beats; i++) {
            steps.add(new Pause(intervalMs));
            steps.add(SetStatus.of(TaskState.WORKING));
        }
        steps.add(new AddChunk(text, false, true));
        steps.add(SetStatus.of(TaskState.COMPLETED));
        return new Script(steps);
    }

    static Script authRequired(String text, long resumeAfterMs) {
        List<Step> steps = new ArrayList<>(List.of(SetStatus.of(TaskState.WORKING),
                new SetStatus(TaskState.AUTH_REQUIRED, "Sign in to continue", null)));
        if (resumeAfterMs > 0) {
            steps.add(new Pause(resumeAfterMs));
            steps.addAll(echo(text).steps());
        }
        return new Script(steps);
    }

    static Script askData() {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("approve", "deploy to production?");
        return new Script(List.of(SetStatus.of(TaskState.WORKING),
                new SetStatusParts(TaskState.INPUT_REQUIRED, List.of(new Part.Data(data, null, null, null)))));
    }

    /** Working, then a pause asking to approve {@code tools} (several form one flat list, as kagent flattens them). */
    static Script approve(String hint, List<KagentHitl.Tool> tools) {
        return new Script(List.of(SetStatus.of(TaskState.WORKING), new HitlPause(KagentHitl.approvalRequest(hint, tools))));
    }

    static Script approveNested(String subagent, KagentHitl.Tool parent, List<KagentHitl.Tool> childTools) {
        return new Script(List.of(SetStatus.of(TaskState.WORKING),
                new HitlPause(KagentHitl.nestedApprovalRequest(subagent, parent, childTools))));
    }

    static Script askUser() {
        return new Script(List.of(SetStatus.of(TaskState.WORKING), new HitlPause(KagentHitl.askUserRequest())));
    }

    /**
     * Step cards as kagent streams them: a working status whose message has a text part and a function_call
     * DataPart, then one with the function_response, then {@code text} as the answer, completed.
     *
     * @param prefix the metadata prefix, {@code kagent_} as kagent writes it or {@code adk_} as upstream ADK does
     */
    static Script steps(String text, String prefix) {
        String callId = "call-" + UUID.randomUUID();
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("namespace", "default");
        return new Script(List.of(SetStatus.of(TaskState.WORKING),
                new SetStatusParts(TaskState.WORKING, List.of(Part.text("Let me list the pods."),
                        KagentHitl.functionCall(prefix, callId, "get_pods", args))),
                new SetStatusParts(TaskState.WORKING, List.of(
                        KagentHitl.functionResponse(prefix, callId, "get_pods", "3 pods", false))),
                new AddChunk(text, false, true),
                SetStatus.of(TaskState.COMPLETED)));
    }

    /** Fails as a kagent agent does on an ADK error event: kagent's text for {@code code}, metadata {@code kagent_error_code}. */
    static Script kagentFail(String code, String message) {
        return new Script(List.of(SetStatus.of(TaskState.WORKING), new SetStatus(TaskState.FAILED, message,
                JsonNodeFactory.instance.objectNode().put("kagent_error_code", code))));
    }

    static Script empty() {
        return new Script(List.of(SetStatus.of(TaskState.WORKING), SetStatus.of(TaskState.COMPLETED)));
    }

    static Script fail(String code, String message) {
        return new Script(List.of(SetStatus.of(TaskState.WORKING),
                new SetStatus(TaskState.FAILED, message, failureMetadata(code))));
    }

    static Script reject(String reason) {
        return new Script(List.of(new SetStatus(TaskState.REJECTED, reason, null)));
    }

    /** A numeric code is written as a JSON number, anything else as a string. */
    private static ObjectNode failureMetadata(String code) {
        ObjectNode metadata = JsonNodeFactory.instance.objectNode();
        try {
            metadata.put("code", Long.parseLong(code));
        } catch (NumberFormatException e) {
            metadata.put("code", code);
        }
        return metadata;
    }

    /** Splits {@code text} into {@code n} consecutive pieces of near-equal length; joined they give the text back. */
    static List<String> split(String text, int n) {
        int[] codePoints = text.codePoints().toArray();
        List<String> pieces = new ArrayList<>(n);
        int start = 0;
        for (int i = 0; i < n; i++) {
            int end = (int) ((long) codePoints.length * (i + 1) / n);
            pieces.add(new String(codePoints, start, end - start));
            start = end;
        }
        return pieces;
    }
}
