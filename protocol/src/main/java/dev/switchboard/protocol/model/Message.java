package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

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

    /**
     * A user message of one text part. {@code metadata} is given as plain values (strings, and maps of
     * them, in order), so a caller builds it without a JSON library; null means none.
     */
    public static Message userText(String messageId, String text, String contextId, String taskId,
            Map<String, ?> metadata) {
        return new Message(messageId, Role.USER, List.of(Part.text(text)), contextId, taskId,
                metadata == null ? null : object(metadata), null, null);
    }

    private static ObjectNode object(Map<?, ?> fields) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        fields.forEach((k, v) -> {
            if (v instanceof Map<?, ?> m) {
                node.set(String.valueOf(k), object(m));
            } else if (v == null) {
                node.putNull(String.valueOf(k));
            } else {
                node.put(String.valueOf(k), String.valueOf(v));
            }
        });
        return node;
    }

    public static Message agentText(String messageId, String text) {
        return new Message(messageId, Role.AGENT, List.of(Part.text(text)), null, null, null, null, null);
    }

    public Message withIds(String newContextId, String newTaskId) {
        return new Message(messageId, role, parts, newContextId, newTaskId, metadata, extensions, referenceTaskIds);
    }

    /** A scalar metadata value as text; null when the key is absent or holds an object or array. */
    public String metadataText(String key) {
        JsonNode v = metadata == null ? null : metadata.get(key);
        return v != null && v.isValueNode() ? v.asText() : null;
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
