package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * What the gateway reads of a relayed SSE event (G13): the task it belongs to and whether it ends the task. Read only
 * until a stream's task is known and, at a resume, of the last buffered event; the relayed bytes are never rewritten.
 * Both versions: 0.3 ({@code result.kind}, {@code result.id} of a Task, {@code result.taskId} of the rest,
 * {@code final}) and 1.0 (the {@code task}/{@code statusUpdate}/{@code artifactUpdate}/{@code message} wrapper).
 *
 * @param taskId the event's task, or null (a message outside a task, a comment, not JSON)
 * @param terminal the event says the task has ended (completed, failed, canceled or rejected)
 */
record StreamEventFields(String taskId, boolean terminal) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StreamEventFields NONE = new StreamEventFields(null, false);
    private static final Set<String> TERMINAL = Set.of("completed", "failed", "canceled", "cancelled", "rejected",
            "task_state_completed", "task_state_failed", "task_state_canceled", "task_state_cancelled",
            "task_state_rejected");

    static StreamEventFields of(Buffer frame) {
        String data = data(frame.toString(StandardCharsets.UTF_8));
        if (data == null) {
            return NONE;
        }
        JsonNode result;
        try {
            result = JSON.readTree(data).path("result");
        } catch (IOException | RuntimeException notJson) {
            return NONE;
        }
        if (!result.isObject()) {
            return NONE;
        }
        for (String wrapper : new String[] {"task", "statusUpdate", "artifactUpdate", "message"}) {
            JsonNode inner = result.get(wrapper);
            if (inner != null && inner.isObject()) {
                return fields(inner, wrapper.equals("task"));
            }
        }
        return fields(result, "task".equals(result.path("kind").asText()));
    }

    private static StreamEventFields fields(JsonNode event, boolean isTask) {
        JsonNode id = isTask ? event.get("id") : event.get("taskId");
        String taskId = id != null && id.isTextual() && !id.asText().isEmpty() ? id.asText() : null;
        String state = event.path("status").path("state").asText("").toLowerCase(java.util.Locale.ROOT);
        return new StreamEventFields(taskId, TERMINAL.contains(state));
    }

    /** The event's data lines joined as SSE joins them, or null when it has none. */
    static String data(String frame) {
        StringBuilder data = null;
        for (String line : frame.split("\r\n|\r|\n")) {
            if (line.startsWith("data")) {
                String value = line.length() > 4 && line.charAt(4) == ':' ? line.substring(5)
                        : line.length() == 4 ? "" : null;
                if (value == null) {
                    continue;
                }
                if (value.startsWith(" ")) {
                    value = value.substring(1);
                }
                if (data == null) {
                    data = new StringBuilder(value);
                } else {
                    data.append('\n').append(value);
                }
            }
        }
        return data == null ? null : data.toString();
    }

    /** An event worth an {@code id:}: one with a data line (not a comment, not a stray blank line). */
    static boolean isEvent(Buffer frame) {
        int n = frame.length();
        for (int i = 0; i < n; i++) {
            byte b = frame.getByte(i);
            if (b == 'd' && (i == 0 || frame.getByte(i - 1) == '\n' || frame.getByte(i - 1) == '\r')
                    && i + 4 <= n && frame.getByte(i + 1) == 'a' && frame.getByte(i + 2) == 't'
                    && frame.getByte(i + 3) == 'a') {
                return true;
            }
        }
        return false;
    }

    /**
     * The frame with {@code id: <eventId>} as its last line: the agent's bytes, less the blank line that ends the
     * event, then the id line and a blank line. Last, so it wins over an {@code id:} the agent wrote (a2a-java does).
     */
    static Buffer withId(Buffer frame, String eventId) {
        int end = frame.length();
        // the frame ends with a line end and a blank line; drop the blank line's own line end (LF, CR or CRLF)
        if (end >= 2 && frame.getByte(end - 1) == '\n' && frame.getByte(end - 2) == '\r') {
            end -= 2;
        } else if (end >= 1) {
            end -= 1;
        }
        Buffer out = Buffer.buffer(end + eventId.length() + 8);
        out.appendBuffer(frame, 0, end).appendString("id: ").appendString(eventId).appendString("\n\n");
        return out;
    }
}
