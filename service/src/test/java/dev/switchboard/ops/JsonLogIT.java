package dev.switchboard.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.ServiceProcess;
import dev.switchboard.bridge.support.Teardown;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * O3, issue 13 point 4: the packaged service with {@code --log-format json} writes a log (stderr) whose every line is
 * one JSON object; the gateway's and the bridge's lines carry the agent, binding, thread and turn ids; no secret of
 * the configuration is in it. And the text format starts quiet: no pool or migration chatter.
 */
@ServerTest
@ProcessTest
class JsonLogIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    Vertx vertx;
    TestAgent agent;
    ServiceProcess service;

    @AfterEach
    void stop() throws Exception {
        Teardown.stop(service, agent, vertx);
    }

    private Path config() throws Exception {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("failing").withVersions(ProtocolVersion.V1_0), 0).await();
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort(); // nothing listens there once the socket is closed
        }
        Path config = dir.resolve("switchboard.yaml");
        Files.writeString(config, ConfigYaml.server(dir.resolve("logs.db"), false, ConfigYaml.QUICK_CONTRACT)
                .webAgent("failing", agent.url(), true)
                .webBackend("down", "http://127.0.0.1:" + closed + "/", null)
                .yaml());
        return config;
    }

    @Test
    void everyLineIsJsonWithTheIdsOfTheGatewayAndTheBridgeAndNoSecret() throws Exception {
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null, "runs in failsafe, on the packaged jar");
        service = new ServiceProcess(config(), Path.of("target", "json-log"), List.of("--log-format", "json"));
        String base = service.start();

        // the gateway: a call to an agent that cannot be reached is logged with the agent's id
        HttpResponse<String> call = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/a2a/down"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message",
                        "messageId":"m1","role":"user","parts":[{"kind":"text","text":"hello"}]}}}"""))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(call.body()).contains("agent unreachable");

        // the bridge: a turn the agent fails is logged with its binding, agent, thread and turn
        ChatApi chat = new ChatApi(base);
        ChatApi.Sent sent = chat.newThread("failing", "/fail");
        chat.awaitState(sent, "failed");

        List<JsonNode> lines = Awaitility.await("the gateway's and the bridge's lines").atMost(Duration.ofSeconds(30))
                .until(() -> jsonLines(service.errors()), l -> l.stream().anyMatch(j -> has(j, "agent", "down"))
                        && l.stream().anyMatch(j -> has(j, "turn", sent.messageId())));

        JsonNode gateway = lines.stream().filter(j -> has(j, "agent", "down")).findFirst().orElseThrow();
        assertThat(gateway.path("level").asText()).isEqualTo("INFO");
        assertThat(gateway.path("loggerName").asText()).startsWith("dev.switchboard.gateway");
        assertThat(gateway.path("formattedMessage").asText()).startsWith("call to down failed");
        assertThat(gateway.path("timestamp").asLong()).isPositive();

        JsonNode bridge = lines.stream().filter(j -> has(j, "turn", sent.messageId())).findFirst().orElseThrow();
        assertThat(bridge.path("loggerName").asText()).startsWith("dev.switchboard.bridge");
        assertThat(bridge.path("mdc").path("thread").asText()).isEqualTo(sent.threadId());
        assertThat(bridge.path("mdc").path("binding").asText()).isNotBlank();
        assertThat(bridge.path("mdc").path("agent").asText()).isEqualTo("failing");
        assertThat(bridge.path("formattedMessage").asText()).contains("ended failed");

        String log = service.errors();
        for (String secret : List.of(ConfigYaml.BINDING_TOKEN, ConfigYaml.BACKEND_TOKEN)) {
            assertThat(log).as("the log holds no secret").doesNotContain(secret);
        }
        assertThat(log).as("no pool or migration chatter").doesNotContain("HikariPool").doesNotContain("Migrating schema");

        // stopped by SIGTERM, the goodbye lines are JSON too
        Process p = service.process();
        p.destroy();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        jsonLines(service.errors());
    }

    @Test
    void theTextLogStartsQuiet() throws Exception {
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null, "runs in failsafe, on the packaged jar");
        service = new ServiceProcess(config(), Path.of("target", "text-log"));
        service.start();
        Process p = service.process();
        p.destroy();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(service.errors()).as("a start and stop with nothing to warn about logs nothing").isBlank();
    }

    private static boolean has(JsonNode line, String key, String value) {
        return value.equals(line.path("mdc").path(key).asText(null));
    }

    /** Every line of the log, each parsed as JSON: a line that is not one object fails the test. */
    private static List<JsonNode> jsonLines(String log) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            JsonNode j = JSON.readTree(line);
            assertThat(j.isObject()).as("a log line that is not a JSON object: %s", line).isTrue();
            out.add(j);
        }
        return out;
    }
}
