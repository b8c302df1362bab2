package dev.switchboard.trigger;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.BridgeConfig;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One Switchboard with a web Binding {@code web-sre} (channel {@code sre}) on a testkit echo agent, and three triggers
 * on it: {@code alerts} (alertmanager), {@code notes} (generic) and {@code slow} (alertmanager, 1 a minute, bursts
 * of 2). Notifications are POSTed over real HTTP.
 */
final class TriggerRig implements AutoCloseable {

    static final String CHANNEL = "sre";
    final Vertx vertx = Vertx.vertx();
    final TestAgent agent;
    private final BridgeConfig config;
    SwitchboardApp app;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    TriggerRig(Path dir) {
        agent = TestAgent.start(vertx, TestAgentOptions.echo("sre"), 0).await();
        config = BridgeConfig.server(dir.resolve("triggers.db"), false, BridgeConfig.QUICK_CONTRACT)
                .webBackend("sre", agent.url(), null)
                .trigger("alerts", "web-sre", "alertmanager", null)
                .trigger("notes", "web-sre", "generic", null)
                .trigger("slow", "web-sre", "alertmanager", "rateLimit: {perMinute: 1, burst: 2}");
        app = config.start(vertx);
    }

    void restart() {
        app.close().await();
        app = config.start(vertx);
    }

    ChatApi chat() {
        return new ChatApi(app.baseUrl());
    }

    HttpResponse<String> post(String trigger, String body) {
        return post(trigger, body, Map.of("Authorization", "Bearer " + BridgeConfig.TRIGGER_TOKEN,
                "Content-Type", "application/json"));
    }

    HttpResponse<String> post(String trigger, String body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(app.baseUrl() + "/triggers/" + trigger))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("POST /triggers/" + trigger + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    List<RecordedRequest> sends() {
        return agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend).toList();
    }

    /** The threads of the trigger's channel, as the web chat lists them. */
    int threads() {
        return chat().get("/api/chat/channels/" + CHANNEL + "/threads").path("threads").size();
    }

    /** An Alertmanager webhook v4 payload of one group with the given alerts (each a JSON object). */
    static String alertmanager(String groupKey, String status, String... alerts) {
        return """
                {"version": "4", "groupKey": "%s", "truncatedAlerts": 0, "status": "%s", "receiver": "switchboard",
                 "groupLabels": {"alertname": "HighLatency"},
                 "commonLabels": {"alertname": "HighLatency", "severity": "page"},
                 "commonAnnotations": {"summary": "p99 above 2s"},
                 "externalURL": "http://alertmanager.example:9093",
                 "alerts": [%s]}
                """.formatted(groupKey.replace("\"", "\\\""), status, String.join(",", alerts));
    }

    static String alert(String status, String instance, String fingerprint, String endsAt) {
        return """
                {"status": "%s", "labels": {"alertname": "HighLatency", "instance": "%s"},
                 "annotations": {"description": "latency on %s"},
                 "startsAt": "2024-05-01T10:00:00Z", "endsAt": "%s",
                 "generatorURL": "http://prometheus.example:9090/graph", "fingerprint": "%s"}
                """.formatted(status, instance, instance, endsAt, fingerprint);
    }

    @Override
    public void close() {
        try {
            if (app != null) {
                app.close().await();
            }
        } finally {
            agent.close().await();
            vertx.close().await();
        }
    }
}
