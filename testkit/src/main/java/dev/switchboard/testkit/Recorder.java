package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.Json;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Every request a test agent received, in arrival order, for tests to assert on. Thread-safe: an
 * agent mounted on a multi-loop server records from several threads.
 */
public final class Recorder {

    private final List<RecordedRequest> requests = new ArrayList<>();
    private final List<String> executions = new ArrayList<>();

    /** A copy of everything recorded so far. */
    public synchronized List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    /** The JSON-RPC requests only (card fetches left out). */
    public synchronized List<RecordedRequest> rpcRequests() {
        return requests.stream().filter(r -> r.rpcMethod() != null).toList();
    }

    /** The messageIds of every send, in arrival order, repeats included. */
    public synchronized List<String> messageIds() {
        return requests.stream().map(RecordedRequest::messageId).filter(Objects::nonNull).toList();
    }

    /**
     * The messageIds of the sends the agent acted on — started a task with, or answered a paused task
     * with — in order, repeats included. A send refused (an error, {@code /busy}) or deduplicated
     * ({@link TestAgentOptions#dedupe()}) is not one; a send received twice and run twice is here twice.
     */
    public synchronized List<String> executedMessageIds() {
        return List.copyOf(executions);
    }

    synchronized void recordExecution(String messageId) {
        executions.add(messageId);
    }

    /** The JSON-RPC methods of every call, in arrival order. */
    public synchronized List<String> rpcMethods() {
        return requests.stream().map(RecordedRequest::rpcMethod).filter(Objects::nonNull).toList();
    }

    /** @throws IllegalStateException when nothing was recorded yet */
    public synchronized RecordedRequest lastRequest() {
        if (requests.isEmpty()) {
            throw new IllegalStateException("the agent has received no request yet");
        }
        return requests.get(requests.size() - 1);
    }

    public synchronized int size() {
        return requests.size();
    }

    public synchronized void clear() {
        requests.clear();
        executions.clear();
    }

    synchronized void record(RecordedRequest request) {
        requests.add(request);
    }

    /** Records a request, reading what it can from the body; a body that is not JSON is kept raw. */
    void record(HttpServerRequest request, Buffer body) {
        String raw = body == null ? "" : body.toString();
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(request.headers());
        JsonNode json = parse(raw);
        JsonNode message = json.path("params").path("message");
        record(new RecordedRequest(request.method().name(), request.path(), headers,
                textOrNull(json.get("method")), json.get("id"),
                textOrNull(message.get("messageId")), textOrNull(message.get("contextId")), textOrNull(message.get("taskId")),
                message.get("metadata"), message.isObject() ? text(message) : null, raw));
    }

    private static JsonNode parse(String raw) {
        if (raw.isBlank()) {
            return Json.mapper().missingNode();
        }
        try {
            JsonNode node = Json.mapper().readTree(raw);
            return node == null ? Json.mapper().missingNode() : node;
        } catch (IOException e) {
            return Json.mapper().missingNode();
        }
    }

    private static String textOrNull(JsonNode node) {
        return node == null || !node.isValueNode() || node.isNull() ? null : node.asText();
    }

    private static String text(JsonNode message) {
        StringBuilder text = new StringBuilder();
        for (JsonNode part : message.path("parts")) {
            if (part.path("text").isTextual()) {
                text.append(part.get("text").asText());
            }
        }
        return text.toString();
    }
}
