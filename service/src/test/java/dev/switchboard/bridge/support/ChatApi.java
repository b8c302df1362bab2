package dev.switchboard.bridge.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.AwaitDefaults;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The web chat's JSON API as a person's browser uses it, over real HTTP (C1). Blocking; for tests.
 */
public final class ChatApi {

    public static final ObjectMapper JSON = new ObjectMapper();
    /** The states a user post ends in. */
    public static final Set<String> FINAL = Set.of("completed", "failed", "rejected", "canceled", "not_delivered");

    /** One entry of {@code GET /api/chat/threads/{id}}. */
    public record Post(String id, String kind, String text, String state, String turnMessageId, JsonNode author,
            Instant createdAt, JsonNode data) {

        static Post of(JsonNode n) {
            return new Post(n.path("id").asText(null), n.path("kind").asText(null), n.path("text").asText(null),
                    n.path("state").isNull() ? null : n.path("state").asText(null), n.path("turnMessageId").asText(null),
                    n.get("author"), Instant.parse(n.path("createdAt").asText()), n.get("data"));
        }

        public boolean isUser() {
            return "user".equals(kind);
        }
    }

    /** A message the web chat accepted (201): its thread (new or not) and its messageId. */
    public record Sent(String threadId, String messageId) {}

    private final String base;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    public ChatApi(String baseUrl) {
        this.base = baseUrl.replaceAll("/+$", "");
    }

    public String base() {
        return base;
    }

    public JsonNode channels() {
        return get("/api/chat/channels");
    }

    /** POST a new thread; asserts the 201. {@code messageId} may be null (the service picks one). */
    public Sent newThread(String channel, String text, String messageId, Map<String, String> headers) {
        HttpResponse<String> r = post("/api/chat/channels/" + channel + "/threads", body(text, messageId), headers);
        assertThat(r.statusCode()).as("POST new thread in %s: %s", channel, r.body()).isEqualTo(201);
        JsonNode n = read(r.body());
        return new Sent(n.path("threadId").asText(), n.path("messageId").asText());
    }

    public Sent newThread(String channel, String text) {
        return newThread(channel, text, null, Map.of());
    }

    /** POST a message into a thread; asserts the 201. */
    public Sent send(String threadId, String text, String messageId, Map<String, String> headers) {
        HttpResponse<String> r = post("/api/chat/threads/" + threadId + "/messages", body(text, messageId), headers);
        assertThat(r.statusCode()).as("POST message to %s: %s", threadId, r.body()).isEqualTo(201);
        return new Sent(threadId, read(r.body()).path("messageId").asText());
    }

    public Sent send(String threadId, String text) {
        return send(threadId, text, null, Map.of());
    }

    /**
     * The raw answer to a message POST, whatever its status (for the crash test and the soak, where the
     * service may be down or die mid-call).
     */
    public HttpResponse<String> trySend(String path, String text, String messageId) throws IOException, InterruptedException {
        return http.send(request(path, Map.of()).POST(HttpRequest.BodyPublishers.ofString(body(text, messageId))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs a structured answer ({@code /api/chat/threads/{id}/answers}) and returns the raw response. */
    public HttpResponse<String> answerQuestion(String threadId, String json) {
        try {
            return http.send(request("/api/chat/threads/" + threadId + "/answers", Map.of())
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public List<Post> posts(String threadId) {
        List<Post> out = new ArrayList<>();
        get("/api/chat/threads/" + threadId).path("posts").forEach(p -> out.add(Post.of(p)));
        return out;
    }

    /** The posts of one kind about one turn. */
    public List<Post> posts(String threadId, String turnMessageId, String kind) {
        return posts(threadId).stream().filter(p -> kind.equals(p.kind()) && turnMessageId.equals(p.turnMessageId()))
                .toList();
    }

    /** The notices about one turn, in order. */
    public List<String> notices(String threadId, String turnMessageId) {
        return posts(threadId, turnMessageId, "notice").stream().map(Post::text).toList();
    }

    /** The text the agent answered a turn with, or null when there is no answer. */
    public String answer(String threadId, String turnMessageId) {
        List<Post> answers = posts(threadId, turnMessageId, "agent");
        assertThat(answers).as("answers to %s", turnMessageId).hasSizeLessThanOrEqualTo(1);
        return answers.isEmpty() ? null : answers.get(0).text();
    }

    public Post userPost(String threadId, String messageId) {
        return posts(threadId).stream().filter(p -> p.isUser() && p.id().equals(messageId)).findFirst()
                .orElseThrow(() -> new AssertionError("no user post " + messageId + " in thread " + threadId));
    }

    /** Waits until the thread's posts satisfy {@code condition}; on timeout, says what the thread showed. */
    public List<Post> awaitPosts(String threadId, String what, Duration timeout, Predicate<List<Post>> condition) {
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

    public List<Post> awaitPosts(String threadId, String what, Predicate<List<Post>> condition) {
        return awaitPosts(threadId, what, AwaitDefaults.WAIT, condition);
    }

    /** Waits (up to {@link AwaitDefaults#WAIT}) until the user post {@code messageId} is in {@code state}. */
    public List<Post> awaitState(String threadId, String messageId, String state) {
        return awaitPosts(threadId, "message " + messageId + " " + state,
                posts -> posts.stream().anyMatch(p -> p.isUser() && p.id().equals(messageId) && state.equals(p.state())));
    }

    public List<Post> awaitState(Sent sent, String state) {
        return awaitState(sent.threadId(), sent.messageId(), state);
    }

    /** Waits until the user post is in a final state, and returns that post. */
    public Post awaitFinal(Sent sent) {
        List<Post> posts = awaitPosts(sent.threadId(), "message " + sent.messageId() + " to end",
                p -> p.stream().anyMatch(x -> x.isUser() && x.id().equals(sent.messageId()) && FINAL.contains(x.state())));
        return posts.stream().filter(p -> p.isUser() && p.id().equals(sent.messageId())).findFirst().orElseThrow();
    }

    // ---- HTTP ----

    public JsonNode get(String path) {
        return read(getText(path));
    }

    public String getText(String path) {
        try {
            HttpResponse<String> r = http.send(request(path, Map.of()).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
            return r.body();
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    public HttpResponse<String> post(String path, String body, Map<String, String> headers) {
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

    public static String body(String text, String messageId) {
        ObjectNode n = JSON.createObjectNode().put("text", text);
        if (messageId != null) {
            n.put("messageId", messageId);
        }
        return n.toString();
    }

    public static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
