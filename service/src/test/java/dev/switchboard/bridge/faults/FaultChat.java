package dev.switchboard.bridge.faults;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** The web chat's JSON API over real HTTP, as a browser uses it; blocking, for tests. */
final class FaultChat {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Set<String> FINAL = Set.of("completed", "failed", "rejected", "canceled", "not_delivered");

    /** One entry of {@code GET /api/chat/threads/{id}}. */
    record Post(String id, String kind, String text, String state, String turnMessageId, Instant createdAt) {

        static Post of(JsonNode n) {
            return new Post(n.path("id").asText(null), n.path("kind").asText(null), n.path("text").asText(null),
                    n.path("state").isNull() ? null : n.path("state").asText(null), n.path("turnMessageId").asText(null),
                    Instant.parse(n.path("createdAt").asText()));
        }

        boolean isUser() {
            return "user".equals(kind);
        }
    }

    /** A message the web chat accepted (201): its thread and messageId. */
    record Sent(String threadId, String messageId) {}

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    FaultChat(String baseUrl) {
        this.base = baseUrl.replaceAll("/+$", "");
    }

    String base() {
        return base;
    }

    Sent newThread(String channel, String text) {
        HttpResponse<String> r = post("/api/chat/channels/" + channel + "/threads", body(text, null));
        assertThat(r.statusCode()).as("POST new thread in %s: %s", channel, r.body()).isEqualTo(201);
        JsonNode n = read(r.body());
        return new Sent(n.path("threadId").asText(), n.path("messageId").asText());
    }

    Sent send(String threadId, String text) {
        HttpResponse<String> r = post("/api/chat/threads/" + threadId + "/messages", body(text, null));
        assertThat(r.statusCode()).as("POST message to %s: %s", threadId, r.body()).isEqualTo(201);
        return new Sent(threadId, read(r.body()).path("messageId").asText());
    }

    List<Post> posts(String threadId) {
        List<Post> out = new ArrayList<>();
        read(getText("/api/chat/threads/" + threadId)).path("posts").forEach(p -> out.add(Post.of(p)));
        return out;
    }

    /** The notices about one turn, in order. */
    List<String> notices(String threadId, String turnMessageId) {
        return posts(threadId).stream().filter(p -> "notice".equals(p.kind()) && turnMessageId.equals(p.turnMessageId()))
                .map(Post::text).toList();
    }

    /** The posts of one kind about one turn. */
    List<Post> posts(String threadId, String turnMessageId, String kind) {
        return posts(threadId).stream().filter(p -> kind.equals(p.kind()) && turnMessageId.equals(p.turnMessageId()))
                .toList();
    }

    /** Waits until the thread satisfies {@code condition}; on timeout, says what the thread showed. */
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

    /** Waits (up to 20 s) until the user post {@code messageId} is in {@code state}. */
    List<Post> awaitState(Sent sent, String state) {
        return awaitPosts(sent.threadId(), "message " + sent.messageId() + " " + state, Duration.ofSeconds(20),
                posts -> posts.stream().anyMatch(p -> p.isUser() && p.id().equals(sent.messageId()) && state.equals(p.state())));
    }

    /** Waits until the user post is in a final state, and returns that post. */
    Post awaitFinal(Sent sent, Duration timeout) {
        List<Post> posts = awaitPosts(sent.threadId(), "message " + sent.messageId() + " to end", timeout,
                p -> p.stream().anyMatch(x -> x.isUser() && x.id().equals(sent.messageId()) && FINAL.contains(x.state())));
        return posts.stream().filter(p -> p.isUser() && p.id().equals(sent.messageId())).findFirst().orElseThrow();
    }

    /** The text the agent answered a turn with, or null when there is no answer. */
    String answer(String threadId, String turnMessageId) {
        List<Post> answers = posts(threadId, turnMessageId, "agent");
        assertThat(answers).as("answers to %s", turnMessageId).hasSizeLessThanOrEqualTo(1);
        return answers.isEmpty() ? null : answers.get(0).text();
    }

    // ---- HTTP ----

    String getText(String path) {
        try {
            HttpResponse<String> r = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
            return r.body();
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A POST whose answer may be anything (the soak posts while the service may be dying). */
    HttpResponse<String> tryPost(String path, String body) throws IOException, InterruptedException {
        return http.send(request(path).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body) {
        try {
            return tryPost(path, body);
        } catch (IOException e) {
            throw new AssertionError("POST " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
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
