package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The web chat's JSON API as a person's browser uses it, over real HTTP (C1). Blocking; for tests.
 */
final class ChatApi {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One entry of {@code GET /api/chat/threads/{id}}. */
    record Post(String id, String kind, String text, String state, String turnMessageId, JsonNode author) {

        static Post of(JsonNode n) {
            return new Post(n.path("id").asText(null), n.path("kind").asText(null), n.path("text").asText(null),
                    n.path("state").isNull() ? null : n.path("state").asText(null), n.path("turnMessageId").asText(null),
                    n.get("author"));
        }

        boolean isUser() {
            return "user".equals(kind);
        }
    }

    /** A 201 answer to a message POST: the thread (for a new thread) and the accepted messageId. */
    record Accepted(String threadId, String messageId) {}

    private final String base;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    ChatApi(String baseUrl) {
        this.base = baseUrl.replaceAll("/+$", "");
    }

    String base() {
        return base;
    }

    JsonNode channels() {
        return get("/api/chat/channels");
    }

    /** POST a new thread; asserts the 201. {@code messageId} may be null (the service picks one). */
    Accepted newThread(String channel, String text, String messageId, Map<String, String> headers) {
        HttpResponse<String> r = post("/api/chat/channels/" + channel + "/threads", body(text, messageId), headers);
        assertThat(r.statusCode()).as("POST new thread in %s: %s", channel, r.body()).isEqualTo(201);
        JsonNode n = read(r.body());
        return new Accepted(n.path("threadId").asText(), n.path("messageId").asText());
    }

    Accepted newThread(String channel, String text) {
        return newThread(channel, text, null, Map.of());
    }

    /** POST a message into a thread; asserts the 201. */
    Accepted send(String threadId, String text, String messageId, Map<String, String> headers) {
        HttpResponse<String> r = post("/api/chat/threads/" + threadId + "/messages", body(text, messageId), headers);
        assertThat(r.statusCode()).as("POST message to %s: %s", threadId, r.body()).isEqualTo(201);
        return new Accepted(threadId, read(r.body()).path("messageId").asText());
    }

    Accepted send(String threadId, String text) {
        return send(threadId, text, null, Map.of());
    }

    /** The raw answer to a message POST, whatever its status (for the crash test, where the service may die mid-call). */
    HttpResponse<String> trySend(String path, String text, String messageId) throws IOException, InterruptedException {
        return http.send(request(path, Map.of()).POST(HttpRequest.BodyPublishers.ofString(body(text, messageId))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    List<Post> posts(String threadId) {
        List<Post> out = new ArrayList<>();
        get("/api/chat/threads/" + threadId).path("posts").forEach(p -> out.add(Post.of(p)));
        return out;
    }

    List<Post> posts(String threadId, String kind) {
        return posts(threadId).stream().filter(p -> kind.equals(p.kind())).toList();
    }

    Post userPost(String threadId, String messageId) {
        return posts(threadId).stream().filter(p -> p.isUser() && p.id().equals(messageId)).findFirst()
                .orElseThrow(() -> new AssertionError("no user post " + messageId + " in thread " + threadId));
    }

    /** Waits until the thread's posts satisfy {@code condition}; on timeout, says what the thread showed. */
    List<Post> awaitPosts(String threadId, String what, Duration timeout, Predicate<List<Post>> condition) {
        List<List<Post>> last = new ArrayList<>(List.of(List.of()));
        try {
            return Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(50)).until(() -> {
                List<Post> p = posts(threadId);
                last.set(0, p);
                return p;
            }, condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("timed out waiting for " + what + "; the thread showed:\n  "
                    + String.join("\n  ", last.get(0).stream().map(Post::toString).toList()), e);
        }
    }

    List<Post> awaitPosts(String threadId, String what, Predicate<List<Post>> condition) {
        return awaitPosts(threadId, what, Duration.ofSeconds(20), condition);
    }

    /** Waits until the user post {@code messageId} is in {@code state}. */
    List<Post> awaitState(String threadId, String messageId, String state) {
        return awaitPosts(threadId, "message " + messageId + " " + state,
                posts -> posts.stream().anyMatch(p -> p.isUser() && p.id().equals(messageId) && state.equals(p.state())));
    }

    // ---- HTTP ----

    JsonNode get(String path) {
        try {
            HttpResponse<String> r = http.send(request(path, Map.of()).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
            return read(r.body());
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    HttpResponse<String> post(String path, String body, Map<String, String> headers) {
        try {
            return http.send(request(path, headers).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("POST " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private HttpRequest.Builder request(String path, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
        headers.forEach(b::header);
        return b;
    }

    static String body(String text, String messageId) {
        ObjectNode n = JSON.createObjectNode().put("text", text);
        if (messageId != null) {
            n.put("messageId", messageId);
        }
        return n.toString();
    }

    static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
