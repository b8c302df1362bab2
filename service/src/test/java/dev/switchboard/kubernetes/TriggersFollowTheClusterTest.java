package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static dev.switchboard.kubernetes.FakeCluster.webBinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.testing.ServerTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, Triggers: one created in the cluster takes webhooks at once; its Secret rotated, the next webhook is
 * checked against the new token (the old one gets 401); pointed at another Binding, its next group opens a thread
 * there; deleted, its endpoint is a 404.
 */
@ServerTest
class TriggersFollowTheClusterTest {

    private static final String FIRST_TOKEN = "first-trigger-token-0123";
    private static final String SECOND_TOKEN = "second-trigger-token-0123";

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    ChatApi chat;
    String baseUrl;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() {
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.apply(webBinding("ops", "echo"));
        cluster.apply(webBinding("oncall", "echo"));
        baseUrl = cluster.start().app().baseUrl();
        chat = new ChatApi(baseUrl);
        cluster.awaitReady("Binding", "oncall", "True");
    }

    @Test
    void aTriggerAddedRotatedMovedAndRemovedIsFollowedAtTheNextWebhook() throws Exception {
        assertThat(post(FIRST_TOKEN, "before").statusCode()).as("no such trigger yet").isEqualTo(404);

        cluster.secret("alerts", "token", FIRST_TOKEN);
        cluster.apply(trigger("ops"));
        cluster.awaitReady("Trigger", "alerts", "True");
        HttpResponse<String> first = post(FIRST_TOKEN, "first");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(202);
        assertThat(threads("ops")).isEqualTo(1);

        cluster.secret("alerts", "token", SECOND_TOKEN);
        // the rotation reaches the running trigger: the old token is refused, the new one taken
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).alias("the old token is refused")
                .until(() -> post(FIRST_TOKEN, "rotated").statusCode() == 401);
        HttpResponse<String> second = post(SECOND_TOKEN, "rotated");
        assertThat(second.statusCode()).as(second.body()).isEqualTo(202);
        assertThat(cluster.ready("Trigger", "alerts").path("reason").asText()).isEqualTo("Applied");

        cluster.apply(trigger("oncall"));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("generation 2 applied")
                .until(() -> cluster.ready("Trigger", "alerts").path("observedGeneration").asLong() == 2
                        && cluster.ready("Trigger", "alerts").path("status").asText().equals("True"));
        HttpResponse<String> moved = post(SECOND_TOKEN, "moved");
        assertThat(moved.statusCode()).as(moved.body()).isEqualTo(202);
        assertThat(threads("oncall")).as("the new group's thread is on the Binding named now").isEqualTo(1);
        assertThat(threads("ops")).isEqualTo(2);

        cluster.delete("Trigger", "alerts");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).alias("the trigger is gone")
                .until(() -> post(SECOND_TOKEN, "gone").statusCode() == 404);
    }

    private HttpResponse<String> post(String token, String key) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(baseUrl + "/triggers/alerts")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"title\": \"Deploy " + key + "\", \"key\": \"" + key + "\"}"))
                .build();
        return http.send(r, HttpResponse.BodyHandlers.ofString());
    }

    private int threads(String channel) {
        JsonNode threads = chat.get("/api/chat/channels/" + channel + "/threads").path("threads");
        return threads.size();
    }

    private static String trigger(String binding) {
        return """
                apiVersion: switchboard.dev/v1
                kind: Trigger
                metadata: {name: alerts}
                spec:
                  bindingRef: {name: %s}
                  format: generic
                  tokenSecretRef: {name: alerts, key: token}
                """.formatted(binding);
    }
}
