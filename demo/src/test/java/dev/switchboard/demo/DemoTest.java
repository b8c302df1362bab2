package dev.switchboard.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** O1: {@code switchboard demo} answers /healthz, serves its agents' cards and relays calls to them. */
@ServerTest
class DemoTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    static Vertx vertx;
    static SwitchboardApp app;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        app = DemoAgents.startDemo(vertx, "127.0.0.1", 0, "sqlite:" + dir.resolve("demo.db")).await();
    }

    @AfterAll
    static void stop() throws Exception {
        app.close().await();
        vertx.close().await();
    }

    @Test
    void answersHealthz() throws Exception {
        HttpResponse<String> r = get("/healthz", null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(r.body()).path("status").asText()).isEqualTo("UP");
    }

    @Test
    void servesEveryDemoAgentsCardThroughTheGatewayInBothShapes() throws Exception {
        for (DemoAgents.Agent agent : DemoAgents.AGENTS) {
            String gatewayUrl = app.baseUrl() + "/a2a/" + agent.name();

            JsonNode v10 = JSON.readTree(get("/a2a/" + agent.name() + "/.well-known/agent-card.json", "1.0").body());
            assertThat(v10.path("name").asText()).isEqualTo(agent.name());
            if (agent.options().versions().contains(dev.switchboard.protocol.ProtocolVersion.V1_0)) {
                assertThat(v10.path("supportedInterfaces").get(0).path("url").asText()).isEqualTo(gatewayUrl);
            }

            JsonNode plain = JSON.readTree(get("/a2a/" + agent.name() + "/.well-known/agent-card.json", null).body());
            assertThat(plain.path("name").asText()).isEqualTo(agent.name());
            if (plain.has("url")) {
                assertThat(plain.path("url").asText()).isEqualTo(gatewayUrl);
            }
        }
    }

    @Test
    void servesTheAgentsOwnCardsAtTheirDemoEndpoints() throws Exception {
        for (DemoAgents.Agent agent : DemoAgents.AGENTS) {
            HttpResponse<String> r = get(DemoAgents.cardPath(agent.name()), null);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(r.body()).path("name").asText()).isEqualTo(agent.name());
        }
    }

    @Test
    void relaysAMessageToTheEchoAgent() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"message/send\",\"params\":{\"message\":{\"kind\":\"message\","
                + "\"messageId\":\"m1\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"hello demo\"}]}}}";
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/a2a/echo"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode reply = JSON.readTree(r.body());
        assertThat(reply.path("id").asInt()).isEqualTo(7);
        assertThat(reply.path("result").path("status").path("state").asText()).isEqualTo("completed");
        assertThat(reply.path("result").path("artifacts").get(0).path("parts").get(0).path("text").asText())
                .isEqualTo("hello demo");
    }

    @Test
    void listsTheDemoAgentsInTheRegistry() throws Exception {
        JsonNode list = JSON.readTree(get("/agents", null).body());
        assertThat(list.path("agents").findValuesAsText("agent_id")).containsExactlyInAnyOrder("echo", "writer", "legacy");
    }

    private static HttpResponse<String> get(String path, String a2aVersion) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(app.baseUrl() + path)).GET();
        if (a2aVersion != null) {
            b.header("A2A-Version", a2aVersion);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
