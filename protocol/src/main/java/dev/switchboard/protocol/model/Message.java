package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** One message of a conversation. Lists are never null (absent reads as empty). */
public record Message(
        String messageId,
        Role role,
        List<Part> parts,
        String contextId,
        String taskId,
        ObjectNode metadata,
        List<String> extensions,
        List<String> referenceTaskIds)
        implements StreamEvent, SendMessageResult {

    public Message {
        parts = parts == null ? List.of() : List.copyOf(parts);
        extensions = extensions == null ? List.of() : List.copyOf(extensions);
        referenceTaskIds = referenceTaskIds == null ? List.of() : List.copyOf(referenceTaskIds);
    }

    public static Message userText(String messageId, String text) {
        return new Message(messageId, Role.USER, List.of(Part.text(text)), null, null, null, null, null);
    }

    public static Message agentText(String messageId, String text) {
        return new Message(messageId, Role.AGENT, List.of(Part.text(text)), null, null, null, null, null);
    }

    public Message withIds(String newContextId, String newTaskId) {
        return new Message(messageId, role, parts, newContextId, newTaskId, metadata, extensions, referenceTaskIds);
    }

    /** The text parts joined, for display and for tests. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (Part p : parts) {
            if (p instanceof Part.Text t && t.text() != null) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }
}
