package dev.switchboard.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCapabilities;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentExtension;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.protocol.model.AgentSkill;
import java.util.List;
import org.junit.jupiter.api.Test;

class CardCodecTest {

    private static final String V10_CARD = "{\"name\":\"Gateway\",\"description\":\"A2A gateway\",\"version\":\"1.0.0\","
            + "\"supportedInterfaces\":["
            + "{\"url\":\"https://gw.example.com/a2a\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"},"
            + "{\"url\":\"https://gw.example.com/a2a\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"0.3\"}],"
            + "\"capabilities\":{\"streaming\":true,\"pushNotifications\":false,\"extendedAgentCard\":true,"
            + "\"extensions\":[{\"uri\":\"https://ext/v1\",\"description\":\"d\",\"required\":true,\"params\":{\"a\":1}}]},"
            + "\"defaultInputModes\":[\"text/plain\"],\"defaultOutputModes\":[\"text/plain\"],"
            + "\"skills\":[{\"id\":\"echo\",\"name\":\"Echo\",\"description\":\"Echoes input\",\"tags\":[\"demo\"]}],"
            + "\"provider\":{\"organization\":\"Acme\",\"url\":\"https://acme\"},"
            + "\"securitySchemes\":{\"key\":{\"apiKeySecurityScheme\":{\"location\":\"header\",\"name\":\"X-API-Key\"}}},"
            + "\"securityRequirements\":[{\"schemes\":{\"key\":{\"list\":[]}}}],"
            + "\"signatures\":[{\"protected\":\"p\",\"signature\":\"s\"}]}";

    private static final String V03_CARD = "{\"name\":\"Old\",\"description\":\"0.3 agent\",\"url\":\"https://old/rpc\","
            + "\"preferredTransport\":\"JSONRPC\",\"additionalInterfaces\":[{\"url\":\"https://old/rpc\",\"transport\":\"JSONRPC\"},"
            + "{\"url\":\"https://old/rest\",\"transport\":\"HTTP+JSON\"}],\"protocolVersion\":\"0.3.0\",\"version\":\"1\","
            + "\"capabilities\":{\"streaming\":true,\"stateTransitionHistory\":true},\"defaultInputModes\":[\"text/plain\"],"
            + "\"defaultOutputModes\":[\"text/plain\"],\"skills\":[],\"supportsAuthenticatedExtendedCard\":true,"
            + "\"securitySchemes\":{\"key\":{\"type\":\"apiKey\",\"in\":\"header\",\"name\":\"X-API-Key\"},"
            + "\"oidc\":{\"type\":\"openIdConnect\",\"openIdConnectUrl\":\"https://id/.well-known\"}},"
            + "\"security\":[{\"oidc\":[\"openid\"]}]}";

    @Test
    void v10CardReadsSupportedInterfacesInOrderAndKeepsUninterpretedFieldsInExtra() {
        AgentCard card = CardCodec.read(Json.parse(V10_CARD));
        assertThat(card.interfaces()).containsExactly(
                new AgentInterface("https://gw.example.com/a2a", "JSONRPC", "1.0", null),
                new AgentInterface("https://gw.example.com/a2a", "JSONRPC", "0.3", null));
        assertThat(card.capabilities()).isEqualTo(new AgentCapabilities(true, false, true, false,
                List.of(new AgentExtension("https://ext/v1", "d", true, (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("{\"a\":1}")))));
        assertThat(card.skills()).containsExactly(new AgentSkill("echo", "Echo", "Echoes input", List.of("demo"), null, null, null));
        assertThat(card.extra().fieldNames()).toIterable()
                .containsExactly("provider", "securitySchemes", "securityRequirements", "signatures");
    }

    @Test
    void v10CardRoundTripsExactlyInTheSameVersion() {
        JsonNode original = Json.parse(V10_CARD);
        JsonNode written = WireCodec.of(ProtocolVersion.V1_0).writeCard(CardCodec.read(original));
        assertThat(written).isEqualTo(original);
    }

    @Test
    void v03CardReadsUrlThenAdditionalInterfacesWithoutDuplicates() {
        AgentCard card = CardCodec.read(Json.parse(V03_CARD));
        assertThat(card.interfaces()).containsExactly(
                new AgentInterface("https://old/rpc", "JSONRPC", "0.3", null),
                new AgentInterface("https://old/rest", "HTTP+JSON", "0.3", null));
        assertThat(card.capabilities().extendedAgentCard()).isTrue();
        assertThat(card.capabilities().stateTransitionHistory()).isTrue();
    }

    @Test
    void v03CardRoundTripsInTheSameVersion() {
        JsonNode original = Json.parse(V03_CARD);
        JsonNode written = WireCodec.of(ProtocolVersion.V0_3).writeCard(CardCodec.read(original));
        assertThat(written.get("additionalInterfaces")).isEqualTo(original.get("additionalInterfaces"));
        assertThat(written.get("protocolVersion").asText()).isEqualTo("0.3.0");
        assertThat(written.get("securitySchemes")).isEqualTo(original.get("securitySchemes"));
        assertThat(written.get("security")).isEqualTo(original.get("security"));
        assertThat(CardCodec.read(written)).isEqualTo(CardCodec.read(original));
    }

    @Test
    void v03CardWrittenAs10ConvertsInterfacesCapabilitiesAndSecurity() {
        JsonNode v10 = WireCodec.of(ProtocolVersion.V1_0).writeCard(CardCodec.read(Json.parse(V03_CARD)));
        assertThat(v10.has("url")).isFalse();
        assertThat(v10.get("supportedInterfaces").get(1).toString())
                .isEqualTo("{\"url\":\"https://old/rest\",\"protocolBinding\":\"HTTP+JSON\",\"protocolVersion\":\"0.3\"}");
        assertThat(v10.at("/capabilities/extendedAgentCard").asBoolean()).isTrue();
        assertThat(v10.has("supportsAuthenticatedExtendedCard")).isFalse();
        assertThat(v10.at("/capabilities/stateTransitionHistory").isMissingNode()).isTrue();
        assertThat(v10.get("securitySchemes")).isEqualTo(Json.parse("{"
                + "\"key\":{\"apiKeySecurityScheme\":{\"location\":\"header\",\"name\":\"X-API-Key\"}},"
                + "\"oidc\":{\"openIdConnectSecurityScheme\":{\"openIdConnectUrl\":\"https://id/.well-known\"}}}"));
        assertThat(v10.get("securityRequirements").toString()).isEqualTo("[{\"schemes\":{\"oidc\":{\"list\":[\"openid\"]}}}]");
        assertThat(v10.has("security")).isFalse();
    }

    @Test
    void v10CardWrittenAs03UsesThe03InterfaceAndConvertsSecurity() {
        JsonNode v03 = WireCodec.of(ProtocolVersion.V0_3).writeCard(CardCodec.read(Json.parse(V10_CARD)));
        assertThat(v03.get("url").asText()).isEqualTo("https://gw.example.com/a2a");
        assertThat(v03.get("preferredTransport").asText()).isEqualTo("JSONRPC");
        assertThat(v03.get("additionalInterfaces")).hasSize(1);
        assertThat(v03.has("supportedInterfaces")).isFalse();
        assertThat(v03.get("supportsAuthenticatedExtendedCard").asBoolean()).isTrue();
        assertThat(v03.at("/capabilities/extendedAgentCard").isMissingNode()).isTrue();
        assertThat(v03.get("securitySchemes").toString())
                .isEqualTo("{\"key\":{\"type\":\"apiKey\",\"in\":\"header\",\"name\":\"X-API-Key\"}}");
        assertThat(v03.get("security").toString()).isEqualTo("[{\"key\":[]}]");
        assertThat(v03.get("provider")).isEqualTo(Json.parse(V10_CARD).get("provider"));
    }

    @Test
    void hybridCardHas03TopLevelFieldsPlusAllSupportedInterfaces() {
        JsonNode hybrid = CardCodec.writeHybrid(CardCodec.read(Json.parse(V10_CARD)));
        assertThat(hybrid.get("url").asText()).isEqualTo("https://gw.example.com/a2a");
        assertThat(hybrid.get("preferredTransport").asText()).isEqualTo("JSONRPC");
        assertThat(hybrid.get("protocolVersion").asText()).isEqualTo("0.3");
        assertThat(hybrid.get("supportedInterfaces")).isEqualTo(Json.parse(V10_CARD).get("supportedInterfaces"));
        assertThat(hybrid.has("additionalInterfaces")).isFalse();
        assertThat(CardCodec.read(hybrid).interfaces()).isEqualTo(CardCodec.read(Json.parse(V10_CARD)).interfaces());
    }

    @Test
    void hybridCardIsReadBySupportedInterfacesFirst() {
        String hybrid = "{\"name\":\"H\",\"url\":\"https://a/rpc\",\"preferredTransport\":\"JSONRPC\",\"protocolVersion\":\"0.3\","
                + "\"supportedInterfaces\":[{\"url\":\"https://a/rpc10\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\",\"tenant\":\"\"}]}";
        assertThat(CardCodec.read(Json.parse(hybrid)).interfaces())
                .containsExactly(new AgentInterface("https://a/rpc10", "JSONRPC", "1.0", ""));
    }

    @Test
    void a2aJsOneofSecuritySchemeShapeIsConvertedTo03() {
        String card = "{\"name\":\"n\",\"supportedInterfaces\":[{\"url\":\"u\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}],"
                + "\"securitySchemes\":{\"bearer\":{\"scheme\":{\"$case\":\"httpAuthSecurityScheme\",\"value\":{\"scheme\":\"Bearer\"}}}}}";
        JsonNode v03 = WireCodec.of(ProtocolVersion.V0_3).writeCard(CardCodec.read(Json.parse(card)));
        assertThat(v03.get("securitySchemes").toString()).isEqualTo("{\"bearer\":{\"type\":\"http\",\"scheme\":\"Bearer\"}}");
    }

    @Test
    void extraNeverOverridesAModelledField() {
        AgentCard card = new AgentCard("real", null, null, List.of(), null, null, null, null, null, null,
                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("{\"name\":\"fake\",\"url\":\"https://fake\"}"));
        JsonNode v10 = WireCodec.of(ProtocolVersion.V1_0).writeCard(card);
        assertThat(v10.get("name").asText()).isEqualTo("real");
        assertThat(v10.has("url")).isFalse();
    }

    @Test
    void versionsAreNormalisedToMajorMinor() {
        assertThat(CardCodec.normaliseVersion("0.3.0")).isEqualTo("0.3");
        assertThat(CardCodec.normaliseVersion("1.0.1")).isEqualTo("1.0");
        assertThat(CardCodec.normaliseVersion("1.0")).isEqualTo("1.0");
        assertThat(CardCodec.normaliseVersion("draft")).isEqualTo("draft");
    }

    @Test
    void cardWithoutInterfacesOrCapabilitiesReadsWithDefaults() {
        AgentCard card = CardCodec.read(Json.parse("{\"name\":\"bare\"}"));
        assertThat(card.interfaces()).isEmpty();
        assertThat(card.capabilities()).isEqualTo(new AgentCapabilities(false, false, false, false, List.of()));
        assertThat(card.extra()).isNull();
    }
}
