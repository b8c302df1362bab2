package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.TaskState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw JSON-RPC client for one A2A version, written by hand from the wire reference (not with the
 * protocol codec) so the tests check the agent's wire shapes independently.
 */
final class WireClient {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    private final String url;
    private final ProtocolVersion version;
    private final AtomicInteger ids = new AtomicInteger();

    WireClient(String url, ProtocolVersion version) {
        this.url = url;
        this.version = version;
    }

    ProtocolVersion version() {
        return version;
    }

    String method(A2aMethod method) {
        return method.nameIn(version).orElseThrow();
    }

    /** A user message in this version's shape. */
    ObjectNode message(String text) {
        ObjectNode message = JSON.createObjectNode();
        message.put("messageId", "m-" + UUID.randomUUID());
        ObjectNode part = JSON.createObjectNode();
        if (version == ProtocolVersion.V0_3) {
            message.put("kind", "message");
            message.put("role", "user");
            part.put("kind", "text");
        } else {
            message.put("role", "ROLE_USER");
        }
        part.put("text", text);
        message.set("parts", JSON.createArrayNode().add(part));
        return message;
    }

    static ObjectNode params(ObjectNode message) {
        ObjectNode params = JSON.createObjectNode();
        params.set("message", message);
        return params;
    }

    /** Configuration that returns at once: 1.0 returnImmediately, 0.3 blocking false. */
    ObjectNode returnImmediately(ObjectNode params) {
        ObjectNode configuration = params.withObjectProperty("configuration");
        if (version == ProtocolVersion.V1_0) {
            configuration.put("returnImmediately", true);
        } else {
            configuration.put("blocking", false);
        }
        return params;
    }

    /** The whole JSON-RPC response to a call. */
    JsonNode call(String method, JsonNode params) {
        return parse(post(request(method, params)).body());
    }

    JsonNode call(A2aMethod method, JsonNode params) {
        return call(method(method), params);
    }

    /** SendMessage with one text message, answered with the Task (the 1.0 wrapper removed). */
    JsonNode sendText(String text) {
        JsonNode response = call(A2aMethod.SEND_MESSAGE, params(message(text)));
        return sendResult(response);
    }

    /** The Task or Message of a SendMessage response, unwrapped; fails on a JSON-RPC error. */
    JsonNode sendResult(JsonNode response) {
        if (response.has("error")) {
            throw new AssertionError("JSON-RPC error: " + response);
        }
        return unwrap(response.get("result"));
    }

    /** A 1.0 result or event without its wrapper ({"task":…} → the Task); 0.3 objects as they are. */
    JsonNode unwrap(JsonNode result) {
        if (version == ProtocolVersion.V0_3) {
            return result;
        }
        return result.elements().next();
    }

    /** task, message, status or artifact: the kind of a result or stream event in either version. */
    String kind(JsonNode result) {
        String name = version == ProtocolVersion.V0_3 ? result.path("kind").asText() : result.fieldNames().next();
        return switch (name) {
            case "statusUpdate", "status-update" -> "status";
            case "artifactUpdate", "artifact-update" -> "artifact";
            default -> name;
        };
    }

    static TaskState state(JsonNode taskOrStatusEvent) {
        String state = taskOrStatusEvent.path("status").path("state").asText();
        String name = state.replace("TASK_STATE_", "").replace('-', '_').toUpperCase(Locale.ROOT);
        return TaskState.valueOf(name);
    }

    /** The text of all artifact parts of a task, in order. */
    static String artifactText(JsonNode task) {
        StringBuilder text = new StringBuilder();
        for (JsonNode artifact : task.path("artifacts")) {
            text.append(partsText(artifact.path("parts")));
        }
        return text.toString();
    }

    static String partsText(JsonNode parts) {
        StringBuilder text = new StringBuilder();
        for (JsonNode part : parts) {
            text.append(part.path("text").asText(""));
        }
        return text.toString();
    }

    String request(String method, JsonNode params) {
        ObjectNode request = JSON.createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", ids.incrementAndGet());
        request.put("method", method);
        request.set("params", params);
        return request.toString();
    }

    HttpResponse<String> post(String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (version == ProtocolVersion.V1_0) {
            request.header("A2A-Version", "1.0");
        }
        return send(request.build());
    }

    /** Opens a stream for a call; events arrive in the background. */
    SseCapture stream(String method, JsonNode params) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(request(method, params)));
        if (version == ProtocolVersion.V1_0) {
            request.header("A2A-Version", "1.0");
        }
        return SseCapture.open(HTTP, request.build());
    }

    SseCapture stream(A2aMethod method, JsonNode params) {
        return stream(method(method), params);
    }

    /** The results of a stream's events, after it ended. */
    List<JsonNode> streamResults(A2aMethod method, JsonNode params) {
        SseCapture capture = stream(method, params);
        capture.awaitEnd();
        List<JsonNode> results = new ArrayList<>();
        for (JsonNode event : capture.events()) {
            if (event.has("error")) {
                throw new AssertionError("error event: " + event);
            }
            results.add(event.get("result"));
        }
        return results;
    }

    static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + json, e);
        }
    }
}
