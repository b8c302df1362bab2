package dev.switchboard.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.ServiceProcess;
import dev.switchboard.bridge.support.Teardown;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G14, issue 26's acceptance on the packaged jar: a notification the gateway accepted while the caller's receiver is
 * down survives a SIGKILL of Switchboard and reaches the receiver once it is up, exactly once (the agent sending it
 * again after the restart included).
 */
@ServerTest
@ProcessTest
class PushCrashRecoveryIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    Vertx vertx;
    ServiceProcess service;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final AtomicReference<JsonNode> agentGot = new AtomicReference<>();
    final AtomicBoolean receiverDown = new AtomicBoolean(true);
    final AtomicInteger refused = new AtomicInteger();
    final List<String> delivered = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws Exception {
        Teardown.stop(service, null, vertx);
    }

    @Test
    void aNotificationAcceptedWhileTheReceiverIsDownReachesItOnceAcrossASigkill() throws Exception {
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null, "runs in failsafe, on the packaged jar");
        vertx = Vertx.vertx();
        HttpServer agent = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            JsonNode call;
            try {
                call = JSON.readTree(b.toString());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            agentGot.set(call);
            ObjectNode reply = JSON.createObjectNode().put("jsonrpc", "2.0");
            reply.set("id", call.get("id"));
            reply.set("result", call.get("params"));
            req.response().putHeader("Content-Type", "application/json").end(reply.toString());
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        HttpServer receiver = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            if (receiverDown.get()) {
                refused.incrementAndGet();
                req.response().setStatusCode(503).end();
            } else {
                delivered.add(b.toString());
                req.response().end();
            }
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        Path config = dir.resolve("switchboard.yaml");
        Files.writeString(config, ConfigYaml.server(dir.resolve("push.db"), "")
                .webBackend("pusher", "http://127.0.0.1:" + agent.actualPort(), null).yaml());
        service = new ServiceProcess(config, Path.of("target", "push-crash-recovery"));
        String base = service.start();

        String hook = "http://127.0.0.1:" + receiver.actualPort() + "/hook";
        HttpResponse<String> set = post(base + "/a2a/pusher", null, """
                {"jsonrpc":"2.0","id":1,"method":"tasks/pushNotificationConfig/set","params":{"taskId":"t-1",
                "pushNotificationConfig":{"id":"cfg-1","url":"%s","token":"caller-token"}}}""".formatted(hook));
        assertThat(set.body()).contains(hook);
        JsonNode given = agentGot.get().path("params").path("pushNotificationConfig");
        String path = URI.create(given.path("url").asText()).getPath();
        String secret = given.path("token").asText();

        String event = "{\"kind\":\"status-update\",\"taskId\":\"t-1\",\"status\":{\"state\":\"completed\"},\"final\":true}";
        assertThat(post(base + path, secret, event).statusCode()).isEqualTo(200);
        Awaitility.await("the receiver refuses a second attempt").atMost(Duration.ofSeconds(60))
                .until(() -> refused.get() >= 2);

        service.kill();
        receiverDown.set(false);
        String again = service.start();
        Awaitility.await("delivered after the restart").atMost(Duration.ofSeconds(60)).until(() -> !delivered.isEmpty());
        // the agent sends it again to the new process: kept once, not delivered twice
        assertThat(post(again + path, secret, event).statusCode()).isEqualTo(200);
        // another notification of the same task (a callback naming another task is refused: its config is t-1's)
        String marker = event.replace("\"final\":true", "\"final\":true,\"metadata\":{\"marker\":true}");
        assertThat(post(again + path, secret, marker).statusCode()).isEqualTo(200);
        Awaitility.await("the marker after it").atMost(Duration.ofSeconds(60)).until(() -> delivered.contains(marker));
        assertThat(delivered).containsExactly(event, marker);
    }

    private HttpResponse<String> post(String url, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("X-A2A-Notification-Token", token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
