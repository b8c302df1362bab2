package dev.switchboard.mcp;

import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.SendMessageResult;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An agent's answer as it builds up from a send's events (or a task read whole): the task and context ids, the state,
 * the artifacts' text (chunks appended by artifact id), and the last status message (a question, when the task waits
 * for input). {@link #add} returns the new text an event brought, which a streaming send reports as progress. Used on
 * one Vert.x context.
 */
final class Answer {

    private final String agentId;
    private String taskId;
    private String contextId;
    private TaskState state = TaskState.UNSPECIFIED;
    private final Map<String, StringBuilder> artifacts = new LinkedHashMap<>();
    private String statusText;
    private String directText;
    private long bytes;

    Answer(String agentId) {
        this.agentId = agentId;
    }

    String taskId() {
        return taskId;
    }

    TaskState state() {
        return state;
    }

    /** The text held so far, as UTF-16 chars (a bound, not an exact byte count). */
    long size() {
        return bytes;
    }

    /** Takes one event; returns the text it added (empty when none). */
    String add(StreamEvent event) {
        if (event instanceof Task t) {
            return task(t);
        }
        if (event instanceof Message m) {
            ids(m.taskId(), m.contextId());
            directText = m.text();
            bytes += directText.length();
            if (state == TaskState.UNSPECIFIED) {
                state = TaskState.COMPLETED; // a direct message is the whole answer
            }
            return directText;
        }
        if (event instanceof TaskStatusUpdateEvent s) {
            ids(s.taskId(), s.contextId());
            state = s.status().state();
            return status(s.status().message());
        }
        if (event instanceof TaskArtifactUpdateEvent a) {
            ids(a.taskId(), a.contextId());
            return artifact(a.artifact(), a.append());
        }
        return "";
    }

    /** Takes a non-streaming send's result. */
    void addResult(SendMessageResult result) {
        add((StreamEvent) result);
    }

    private String task(Task t) {
        ids(t.id(), t.contextId());
        state = t.state();
        StringBuilder added = new StringBuilder();
        if (t.artifacts() != null) {
            artifacts.clear();
            for (Artifact a : t.artifacts()) {
                added.append(artifact(a, false));
            }
        }
        added.append(status(t.status().message()));
        return added.toString();
    }

    private String status(Message m) {
        if (m == null) {
            return "";
        }
        String text = m.text();
        if (text.isEmpty()) {
            return "";
        }
        statusText = text;
        bytes += text.length();
        return text;
    }

    private String artifact(Artifact a, boolean append) {
        if (a == null) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        for (Part p : a.parts()) {
            if (p instanceof Part.Text t && t.text() != null) {
                text.append(t.text());
            }
        }
        String key = a.artifactId() == null ? "" : a.artifactId();
        StringBuilder held = artifacts.computeIfAbsent(key, k -> new StringBuilder());
        if (!append) {
            bytes -= held.length();
            held.setLength(0);
        }
        held.append(text);
        bytes += text.length();
        return text.toString();
    }

    private void ids(String task, String context) {
        if (task != null && !task.isEmpty()) {
            taskId = task;
        }
        if (context != null && !context.isEmpty()) {
            contextId = context;
        }
    }

    /** The answer's text: the artifacts', else the last status message's, else the direct message's. */
    String text() {
        List<String> parts = new ArrayList<>();
        artifacts.values().forEach(b -> {
            if (!b.isEmpty()) {
                parts.add(b.toString());
            }
        });
        if (!parts.isEmpty() && state != TaskState.INPUT_REQUIRED && state != TaskState.AUTH_REQUIRED) {
            return String.join("\n", parts);
        }
        if (statusText != null) {
            return statusText;
        }
        return directText != null ? directText : String.join("\n", parts);
    }

    /** The tool result: the text, and the ids and state a client needs to go on (answer a question, poll, cancel). */
    McpSchema.CallToolResult result() {
        String text = text();
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("agent", agentId);
        structured.put("state", stateLabel(state));
        structured.put("text", text);
        if (taskId != null) {
            structured.put("taskId", taskId);
        }
        if (contextId != null) {
            structured.put("contextId", contextId);
        }
        McpSchema.CallToolResult.Builder b = McpSchema.CallToolResult.builder()
                .addTextContent(text.isEmpty() ? "(the agent answered no text; state " + stateLabel(state) + ")" : text);
        if (state.isInterrupted() && taskId != null) {
            b.addTextContent("The agent waits for input (" + stateLabel(state) + "). Answer with send_message, agent \""
                    + agentId + "\", taskId \"" + taskId + "\"" + (contextId == null ? "" : ", contextId \"" + contextId + "\"")
                    + ", and your answer as text.");
        } else if (!state.isTerminal() && taskId != null) {
            b.addTextContent("The task is still " + stateLabel(state) + ": read it later with get_task, taskId \""
                    + taskId + "\".");
        }
        return b.structuredContent(structured)
                .isError(state == TaskState.FAILED || state == TaskState.REJECTED)
                .build();
    }

    /** A2A's kebab-case state names, as 0.3 writes them and MCP clients show them. */
    static String stateLabel(TaskState s) {
        return switch (s) {
            case INPUT_REQUIRED -> "input-required";
            case AUTH_REQUIRED -> "auth-required";
            case UNSPECIFIED -> "unknown";
            default -> s.name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
