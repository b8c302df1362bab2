package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * One HTTP request a test agent received, as it arrived. JSON-RPC fields are null when the body did
 * not hold them (a card GET, invalid JSON, a call that is not a send).
 *
 * @param httpMethod e.g. POST
 * @param path the request path, e.g. {@code /} or {@code /demo/echo/.well-known/agent-card.json}
 * @param headers a case-insensitive copy of the request headers
 * @param rpcMethod the JSON-RPC method, e.g. {@code SendMessage} or {@code message/send}
 * @param id the JSON-RPC id as sent (string, number or null node); null when absent
 * @param messageId the sent message's messageId
 * @param contextId the sent message's contextId
 * @param taskId the sent message's taskId
 * @param metadata the sent message's metadata
 * @param text the sent message's text parts joined
 * @param body the raw request body
 * @param receivedAt when the request arrived (its body read), for tests that assert on timing
 */
public record RecordedRequest(
        String httpMethod,
        String path,
        MultiMap headers,
        String rpcMethod,
        JsonNode id,
        String messageId,
        String contextId,
        String taskId,
        JsonNode metadata,
        String text,
        String body,
        Instant receivedAt) {

    /** A request received now. */
    public RecordedRequest(String httpMethod, String path, MultiMap headers, String rpcMethod, JsonNode id,
            String messageId, String contextId, String taskId, JsonNode metadata, String text, String body) {
        this(httpMethod, path, headers, rpcMethod, id, messageId, contextId, taskId, metadata, text, body, Instant.now());
    }

    /** The first value of a header, case-insensitively; null when absent. */
    public String header(String name) {
        return headers.get(name);
    }

    /** The extension URIs the request asked for in its {@code A2A-Extensions} headers (comma-separated, trimmed). */
    public List<String> requestedExtensions() {
        return headers.getAll("A2A-Extensions").stream()
                .flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::strip)
                .filter(uri -> !uri.isEmpty())
                .toList();
    }

    /** True for SendMessage, SendStreamingMessage and their 0.3 names. */
    public boolean isSend() {
        return messageId != null || "SendMessage".equals(rpcMethod) || "SendStreamingMessage".equals(rpcMethod)
                || "message/send".equals(rpcMethod) || "message/stream".equals(rpcMethod);
    }
}
