package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.codec.CardCodec;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.model.AgentCapabilities;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentInterface;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves the agent card in the shape the caller's {@code A2A-Version} asks for, as a2a-js does:
 * {@code 1.0} gets the pure 1.0 card; no header gets the hybrid card when both versions are served
 * (0.3 clients read its top-level url, the 1.0 TCK its supportedInterfaces), else the pure 0.3 card.
 */
final class CardEndpoint implements Handler<RoutingContext> {

    private final AgentCard card;
    private final TestAgentOptions options;
    private final Recorder recorder;

    CardEndpoint(TestAgentOptions options, String endpointUrl, Recorder recorder) {
        this.options = options;
        this.recorder = recorder;
        this.card = card(options, endpointUrl);
    }

    /** The card as a model: the 1.0 interface first, the one the TCK and 1.0 clients pick. */
    static AgentCard card(TestAgentOptions options, String endpointUrl) {
        List<AgentInterface> interfaces = new ArrayList<>();
        for (ProtocolVersion version : List.of(ProtocolVersion.V1_0, ProtocolVersion.V0_3)) {
            if (options.serves(version)) {
                interfaces.add(new AgentInterface(endpointUrl, options.interfaceBinding(), version.label(), null));
            }
        }
        return new AgentCard(options.name(), options.description(), "1.0.0", interfaces,
                new AgentCapabilities(options.streaming(), false, false, false, options.extensions()),
                List.of("text/plain"), List.of("text/plain"), options.skills(), null, null, null);
    }

    @Override
    public void handle(RoutingContext ctx) {
        recorder.record(ctx.request(), null);
        ctx.response()
                .putHeader("Content-Type", "application/json")
                .putHeader("Vary", "A2A-Version")
                .end(withExplicitHitl(cardFor(ctx.request().getHeader("A2A-Version"))).toString());
    }

    /**
     * Writes kagent's hitl/v1 entry with {@code "required": false} spelled out, as kagent's sources declare it
     * ({@code EnrichAgentCard}, {@code attach_hitl_agent_extension}). kagent's own serialisers drop the false
     * (Go {@code omitempty}, proto3 JSON defaults), so clients must read an absent {@code required} as false too.
     */
    private static JsonNode withExplicitHitl(JsonNode card) {
        for (JsonNode extension : card.path("capabilities").path("extensions")) {
            if (extension instanceof ObjectNode entry && KagentHitl.URI.equals(entry.path("uri").asText()) && !entry.has("required")) {
                entry.put("required", false);
            }
        }
        return card;
    }

    private JsonNode cardFor(String requestedVersion) {
        boolean wants10 = requestedVersion != null && requestedVersion.strip().startsWith("1.");
        if (options.serves(ProtocolVersion.V1_0) && (wants10 || !options.serves(ProtocolVersion.V0_3))) {
            return WireCodec.of(ProtocolVersion.V1_0).writeCard(card);
        }
        if (options.serves(ProtocolVersion.V1_0) && (requestedVersion == null || requestedVersion.isBlank())) {
            return CardCodec.writeHybrid(card);
        }
        return WireCodec.of(ProtocolVersion.V0_3).writeCard(only(ProtocolVersion.V0_3));
    }

    /** The card with the interfaces of one version: 0.3 interfaces carry no version, so list only its own. */
    private AgentCard only(ProtocolVersion version) {
        return card.withInterfaces(card.interfaces().stream()
                .filter(i -> i.protocolVersion().equals(version.label()))
                .toList());
    }
}
