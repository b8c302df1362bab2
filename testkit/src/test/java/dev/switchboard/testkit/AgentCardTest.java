package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.ProtocolVersion;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentCardTest extends AgentTestSupport {

    private static HttpResponse<String> fetch(String cardUrl, String version) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(cardUrl)).GET();
        if (version != null) {
            request.header("A2A-Version", version);
        }
        return WireClient.send(request.build());
    }

    @Test
    void cardIsServedNextToTheEndpoint() {
        assertThat(agent.cardUrl()).isEqualTo(agent.url() + ".well-known/agent-card.json");
        assertThat(agent.url()).isEqualTo("http://127.0.0.1:" + agent.port() + "/");
    }

    @Test
    void versionOneHeaderGetsThePureOneCardWithTheOneInterfaceFirst() {
        HttpResponse<String> response = fetch(agent.cardUrl(), "1.0");
        JsonNode card = WireClient.parse(response.body());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Vary")).hasValue("A2A-Version");
        assertThat(card.has("url")).isFalse();
        assertThat(card.has("preferredTransport")).isFalse();
        JsonNode first = card.path("supportedInterfaces").get(0);
        assertThat(first.path("url").asText()).isEqualTo(agent.url());
        assertThat(first.path("protocolBinding").asText()).isEqualTo("JSONRPC");
        assertThat(first.path("protocolVersion").asText()).isEqualTo("1.0");
        assertThat(card.path("supportedInterfaces").get(1).path("protocolVersion").asText()).isEqualTo("0.3");
        assertThat(card.path("name").asText()).isEqualTo("echo");
        assertThat(card.path("capabilities").path("streaming").asBoolean()).isTrue();
        assertThat(card.path("skills").get(0).path("id").asText()).isEqualTo("echo");
    }

    @Test
    void noHeaderGetsTheHybridCardWhenBothVersionsAreServed() {
        HttpResponse<String> response = fetch(agent.cardUrl(), null);
        JsonNode card = WireClient.parse(response.body());

        assertThat(response.headers().firstValue("Vary")).hasValue("A2A-Version");
        assertThat(card.path("url").asText()).isEqualTo(agent.url());
        assertThat(card.path("preferredTransport").asText()).isEqualTo("JSONRPC");
        assertThat(card.path("protocolVersion").asText()).startsWith("0.3");
        assertThat(card.path("supportedInterfaces").get(0).path("protocolVersion").asText()).isEqualTo("1.0");
    }

    @Test
    void zeroThreeOnlyAgentServesThePureZeroThreeCard() {
        TestAgent old = start(TestAgentOptions.echo("old").withVersions(ProtocolVersion.V0_3));

        JsonNode card = WireClient.parse(fetch(old.cardUrl(), null).body());

        assertThat(card.path("url").asText()).isEqualTo(old.url());
        assertThat(card.path("protocolVersion").asText()).startsWith("0.3");
        assertThat(card.has("supportedInterfaces")).isFalse();
    }

    @Test
    void oneOnlyAgentServesTheOneCardWithoutAHeader() {
        TestAgent modern = start(TestAgentOptions.echo("modern").withVersions(ProtocolVersion.V1_0).withStreaming(false));

        JsonNode card = WireClient.parse(fetch(modern.cardUrl(), null).body());

        assertThat(card.has("url")).isFalse();
        assertThat(card.path("supportedInterfaces")).hasSize(1);
        assertThat(card.path("capabilities").path("streaming").asBoolean(false)).isFalse();
    }

    @Test
    void mountedAgentsAdvertiseTheirPublicEndpointAndAnswerThere() {
        Router main = Router.router(vertx);
        HttpServer server = await(vertx.createHttpServer().requestHandler(main).listen(0, "127.0.0.1"));
        String base = "http://127.0.0.1:" + server.actualPort();
        Recorder echoRecorder = new Recorder();
        main.route("/demo/echo/*").subRouter(TestAgent.router(vertx, TestAgentOptions.echo("demo-echo"), base + "/demo/echo", echoRecorder));
        main.route("/demo/ask/*").subRouter(TestAgent.router(vertx,
                TestAgentOptions.echo("demo-ask").withDefaultBehavior("/ask Really?"), base + "/demo/ask", new Recorder()));
        try {
            JsonNode card = WireClient.parse(fetch(base + "/demo/echo/.well-known/agent-card.json", "1.0").body());
            assertThat(card.path("name").asText()).isEqualTo("demo-echo");
            assertThat(card.path("supportedInterfaces").get(0).path("url").asText()).isEqualTo(base + "/demo/echo");

            for (String endpoint : List.of(base + "/demo/echo", base + "/demo/echo/")) {
                JsonNode task = new WireClient(endpoint, ProtocolVersion.V1_0).sendText("mounted");
                assertThat(WireClient.artifactText(task)).isEqualTo("mounted");
            }
            JsonNode asked = new WireClient(base + "/demo/ask", ProtocolVersion.V0_3).sendText("hi");
            assertThat(asked.path("status").path("state").asText()).isEqualTo("input-required");
            assertThat(echoRecorder.messageIds()).hasSize(2);
        } finally {
            await(server.close());
        }
    }

    @Test
    void cardFetchesAreRecorded() {
        fetch(agent.cardUrl(), "1.0");

        RecordedRequest last = agent.recorder().lastRequest();
        assertThat(last.httpMethod()).isEqualTo("GET");
        assertThat(last.path()).isEqualTo("/.well-known/agent-card.json");
        assertThat(last.header("a2a-version")).isEqualTo("1.0");
        assertThat(last.rpcMethod()).isNull();
    }
}
