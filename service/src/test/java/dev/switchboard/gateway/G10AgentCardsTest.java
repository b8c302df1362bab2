package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.codec.CardCodec;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.InteropTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.JdkA2AHttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G10: {@code GET /.well-known/agent-card.json} is Switchboard's own card (a valid A2A card: name,
 * version, the gateway's interfaces, capabilities, the union of the agents' skills);
 * {@code GET /a2a/{agentId}/.well-known/agent-card.json} is the agent's own card, fetched and cached,
 * its interface URLs rewritten to {@code …/a2a/{agentId}} (1.0 {@code supportedInterfaces[].url}, 0.3
 * {@code url}/{@code additionalInterfaces}); an agent without a card gets one built from its
 * registration.
 */
@ServerTest
@InteropTest
class G10AgentCardsTest {

    /** A card listing JSON-RPC, gRPC and REST interfaces in both shapes at once. */
    private static final String MULTI_CARD = """
            {"name":"multi","description":"three bindings","version":"1.2.3",
             "supportedInterfaces":[
               {"url":"http://agent.internal/jsonrpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
               {"url":"http://agent.internal/grpc","protocolBinding":"GRPC","protocolVersion":"1.0"},
               {"url":"http://agent.internal/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}],
             "url":"http://agent.internal/jsonrpc","preferredTransport":"JSONRPC","protocolVersion":"0.3.0",
             "additionalInterfaces":[
               {"url":"http://agent.internal/jsonrpc","transport":"JSONRPC"},
               {"url":"http://agent.internal/grpc","transport":"GRPC"},
               {"url":"http://agent.internal/rest","transport":"HTTP+JSON"}],
             "capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
             "skills":[{"id":"m","name":"Multi","description":"many ways in","tags":["multi"]}]}
            """;

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent both;
    static TestAgent legacy;
    static TestAgent cached;
    static RawAgent multi;
    static RawAgent cardless;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        both = h.agent(TestAgentOptions.echo("both").withSkills(List.of(
                new AgentSkill("translate", "Translate", "Translates text", List.of("language"), null, null, null))));
        legacy = h.agent(TestAgentOptions.echo("legacy").withVersions(ProtocolVersion.V0_3));
        cached = h.agent(TestAgentOptions.echo("cached"));
        multi = h.raw((req, body, ex) -> req.response().putHeader("Content-Type", "application/json").end(MULTI_CARD));
        cardless = h.raw((req, body, ex) -> req.response().setStatusCode(404).end("no card here"));
        h.backend(Harness.spec("both", both.url(), AgentLimits.DEFAULTS, Map.of(), null, List.of(
                        new AgentSkill("summarize", "Summarize", "Summarizes text", List.of("text"), null, null, null))))
                .backend("legacy", legacy.url())
                .backend("cached", cached.url())
                .backend("multi", multi.url())
                .backend(Harness.spec("cardless", cardless.url(), AgentLimits.DEFAULTS, Map.of(), null, List.of(
                        new AgentSkill("lookup", "Lookup", "Looks things up", List.of("search"), null, null, null))))
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static String gatewayUrl(String agentId) {
        return h.base() + "/a2a/" + agentId;
    }

    private static JsonNode card(String path, String a2aVersion) {
        Reply reply = a2aVersion == null ? h.http().get(path) : h.http().get(path, "A2A-Version", a2aVersion);
        assertThat(reply.status()).as(path + " " + reply).isEqualTo(200);
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        return reply.json();
    }

    private static JsonNode agentCard(String agentId, String a2aVersion) {
        return card("/a2a/" + agentId + "/.well-known/agent-card.json", a2aVersion);
    }

    /** The members a 1.0 card must have (a2a.proto REQUIRED fields), skills included. */
    private static void valid10(JsonNode card) {
        for (String field : List.of("name", "description", "version")) {
            assertThat(card.path(field).isTextual()).as(field + " in " + card).isTrue();
        }
        assertThat(card.path("supportedInterfaces").isArray() && card.path("supportedInterfaces").size() > 0).isTrue();
        card.path("supportedInterfaces").forEach(i -> {
            assertThat(i.path("url").isTextual()).isTrue();
            assertThat(i.path("protocolBinding").isTextual()).isTrue();
            assertThat(i.path("protocolVersion").isTextual()).isTrue();
        });
        assertThat(card.path("capabilities").isObject()).isTrue();
        assertThat(card.path("defaultInputModes").isArray()).isTrue();
        assertThat(card.path("defaultOutputModes").isArray()).isTrue();
        validSkills(card);
        CardCodec.read(card);
    }

    /** The members a 0.3 card must have (0.3 JSON schema's required list), skills included. */
    private static void valid03(JsonNode card) {
        for (String field : List.of("name", "description", "version", "url", "protocolVersion")) {
            assertThat(card.path(field).isTextual()).as(field + " in " + card).isTrue();
        }
        assertThat(card.path("capabilities").isObject()).isTrue();
        assertThat(card.path("defaultInputModes").isArray()).isTrue();
        assertThat(card.path("defaultOutputModes").isArray()).isTrue();
        validSkills(card);
        CardCodec.read(card);
    }

    private static void validSkills(JsonNode card) {
        assertThat(card.path("skills").isArray()).isTrue();
        card.path("skills").forEach(s -> {
            for (String field : List.of("id", "name", "description")) {
                assertThat(s.path(field).isTextual()).as(field + " of skill " + s).isTrue();
            }
            assertThat(s.path("tags").isArray()).as("tags of skill " + s).isTrue();
        });
    }

    private static List<String> skillNames(JsonNode card) {
        List<String> names = new ArrayList<>();
        card.path("skills").forEach(s -> names.add(s.path("name").asText()));
        return names;
    }

    // ---- the platform card ----

    @Test
    void g10_thePlatformCardIsAValidA2aCardInBothShapes() throws Exception {
        JsonNode v10 = card("/.well-known/agent-card.json", "1.0");
        valid10(v10);
        assertThat(v10.path("name").asText()).isEqualTo("switchboard");
        assertThat(v10.path("supportedInterfaces")).allSatisfy(i -> {
            assertThat(i.path("url").asText()).isEqualTo(h.base() + "/a2a");
            assertThat(i.path("protocolBinding").asText()).isEqualTo("JSONRPC");
        });

        JsonNode hybrid = card("/.well-known/agent-card.json", null);
        valid03(hybrid);
        assertThat(hybrid.path("url").asText()).isEqualTo(h.base() + "/a2a");

        // and the stock a2a-java 0.3 client reads it
        io.a2a.spec.AgentCard sdk = new A2ACardResolver(new JdkA2AHttpClient(), h.base(), "/.well-known/agent-card.json")
                .getAgentCard();
        assertThat(sdk.name()).isEqualTo("switchboard");
        assertThat(sdk.url()).isEqualTo(h.base() + "/a2a");
    }

    @Test
    void g10_thePlatformCardListsTheUnionOfTheAgentsSkills() {
        for (JsonNode card : List.of(card("/.well-known/agent-card.json", "1.0"), card("/.well-known/agent-card.json", null))) {
            // skills from the configuration ...
            assertThat(skillNames(card)).contains("Summarize", "Lookup");
            // ... and, for agents whose configuration names none, from the agent's own card
            assertThat(skillNames(card)).as("legacy's skills come from its card").contains("Echo");
        }
    }

    // ---- agent cards ----

    @Test
    void g10_theAgentsOwnCardIsRewrittenToTheGatewayIn10Shape() {
        JsonNode card = agentCard("both", "1.0");

        valid10(card);
        assertThat(card.path("name").asText()).isEqualTo("both");
        assertThat(skillNames(card)).as("the agent's card, not the registration").containsExactly("Translate");
        assertThat(card.path("supportedInterfaces")).hasSize(2).allSatisfy(i ->
                assertThat(i.path("url").asText()).isEqualTo(gatewayUrl("both")));
        assertThat(card.path("supportedInterfaces").findValuesAsText("protocolVersion")).containsExactly("1.0", "0.3");
        assertThat(card.toString()).doesNotContain(both.url().replaceAll("/$", ""));
    }

    @Test
    void g10_theAgentsOwnCardIsRewrittenToTheGatewayInHybridAnd03Shapes() throws Exception {
        JsonNode hybrid = agentCard("both", null);
        valid03(hybrid);
        assertThat(hybrid.path("url").asText()).isEqualTo(gatewayUrl("both"));
        assertThat(hybrid.path("preferredTransport").asText()).isEqualTo("JSONRPC");
        assertThat(hybrid.path("supportedInterfaces")).allSatisfy(i ->
                assertThat(i.path("url").asText()).isEqualTo(gatewayUrl("both")));
        assertThat(hybrid.toString()).doesNotContain(both.url().replaceAll("/$", ""));

        JsonNode v03 = agentCard("legacy", null);
        valid03(v03);
        assertThat(v03.path("name").asText()).isEqualTo("legacy");
        assertThat(v03.path("url").asText()).isEqualTo(gatewayUrl("legacy"));
        v03.path("additionalInterfaces").forEach(i -> assertThat(i.path("url").asText()).isEqualTo(gatewayUrl("legacy")));
        assertThat(v03.toString()).doesNotContain(legacy.url().replaceAll("/$", ""));

        // what a stock 0.3 client resolves from the gateway's card URL
        io.a2a.spec.AgentCard sdk = new A2ACardResolver(new JdkA2AHttpClient(), h.base(),
                "/a2a/legacy/.well-known/agent-card.json").getAgentCard();
        assertThat(sdk.url()).isEqualTo(gatewayUrl("legacy"));
    }

    @Test
    void g10_nonJsonRpcInterfacesAreDropped() {
        for (String version : new String[] {"1.0", null}) {
            JsonNode card = agentCard("multi", version);
            assertThat(card.path("supportedInterfaces")).hasSize(1);
            assertThat(card.path("supportedInterfaces").get(0).path("protocolBinding").asText()).isEqualTo("JSONRPC");
            assertThat(card.path("supportedInterfaces").get(0).path("url").asText()).isEqualTo(gatewayUrl("multi"));
            assertThat(card.path("additionalInterfaces")).hasSize(1);
            assertThat(card.path("additionalInterfaces").get(0).path("transport").asText()).isEqualTo("JSONRPC");
            assertThat(card.path("additionalInterfaces").get(0).path("url").asText()).isEqualTo(gatewayUrl("multi"));
            assertThat(card.path("url").asText()).isEqualTo(gatewayUrl("multi"));
            assertThat(card.toString()).doesNotContain("agent.internal");
        }
    }

    @Test
    void g10_theAgentsCardIsCached() {
        cached.recorder().clear();
        for (int i = 0; i < 3; i++) {
            assertThat(agentCard("cached", "1.0").path("name").asText()).isEqualTo("cached");
        }
        assertThat(cached.recorder().requests()).filteredOn(r -> r.httpMethod().equals("GET")).hasSize(1);
    }

    @Test
    void g10_anAgentWithoutACardGetsOneBuiltFromItsRegistration() {
        JsonNode v10 = agentCard("cardless", "1.0");
        valid10(v10);
        assertThat(v10.path("name").asText()).isEqualTo("cardless");
        assertThat(skillNames(v10)).containsExactly("Lookup");
        assertThat(v10.path("supportedInterfaces")).isNotEmpty().allSatisfy(i ->
                assertThat(i.path("url").asText()).isEqualTo(gatewayUrl("cardless")));

        JsonNode hybrid = agentCard("cardless", null);
        valid03(hybrid);
        assertThat(hybrid.path("url").asText()).isEqualTo(gatewayUrl("cardless"));
    }

    @Test
    void g10_aDynamicRegistrationWithoutACardGetsOneFromTheRegistrationFields() {
        Reply registered = h.http().post("/agents/register", "{\"agent_id\":\"described\",\"name\":\"Described\","
                + "\"url\":\"" + cardless.url() + "\",\"description\":\"Registered over the API\",\"version\":\"3.1\","
                + "\"skills\":[{\"id\":\"q\",\"name\":\"Query\",\"description\":\"Answers\",\"tags\":[\"qa\"]}],"
                + "\"protocolVersions\":[\"0.3\",\"1.0\"]}");
        assertThat(registered.status()).isEqualTo(200);

        JsonNode card = agentCard("described", "1.0");

        valid10(card);
        assertThat(card.path("name").asText()).isEqualTo("Described");
        assertThat(card.path("description").asText()).isEqualTo("Registered over the API");
        assertThat(card.path("version").asText()).isEqualTo("3.1");
        assertThat(skillNames(card)).containsExactly("Query");
        assertThat(card.path("supportedInterfaces").findValuesAsText("protocolVersion")).containsExactlyInAnyOrder("0.3", "1.0");
        assertThat(card.path("supportedInterfaces")).allSatisfy(i ->
                assertThat(i.path("url").asText()).isEqualTo(gatewayUrl("described")));
        AgentCard model = CardCodec.read(card);
        assertThat(model.interfaces()).allSatisfy(i -> assertThat(i.isJsonRpc()).isTrue());
    }

    @Test
    void g10_anUnknownAgentHasNoCard() {
        assertThat(h.http().get("/a2a/nobody/.well-known/agent-card.json").status()).isEqualTo(404);
    }
}
