package dev.switchboard.mcp;

import dev.switchboard.auth.Caller;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.gateway.Egress;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.VersionDetector;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.Future;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where and how the MCP door calls an agent: the A2A version and whether it streams, read once from its card (cached
 * until the agent changes or goes), and the endpoint of one call: the agent's URL, the caller's identity in the
 * caller-id header, the backend's static headers (which win, as on the gateway), the span's trace context, and — for
 * an API-registered agent — the address the egress policy allowed at this call (DNS rebinding is checked per call, as
 * the gateway does).
 */
final class AgentTargets {

    /** What the card said: the version to speak and whether to stream. */
    record Profile(ProtocolVersion version, boolean streaming) {}

    private final A2aAgentClient client;
    private final Egress egress;
    private final String callerIdHeader;
    private final Map<String, Future<Profile>> profiles = new ConcurrentHashMap<>();

    AgentTargets(A2aAgentClient client, Egress egress, String callerIdHeader) {
        this.client = client;
        this.egress = egress;
        this.callerIdHeader = callerIdHeader;
    }

    /** The endpoint of one call to {@code agent} for {@code caller}, with {@code trace} headers. */
    Future<AgentEndpoint> endpoint(RegisteredAgent agent, Caller caller, Map<String, String> trace) {
        Map<String, String> headers = new LinkedHashMap<>(trace);
        headers.put(callerIdHeader, caller.id());
        headers.putAll(agent.headers());
        AgentEndpoint base = new AgentEndpoint(agent.url(), ProtocolVersion.V1_0, headers);
        Future<AgentEndpoint> aimed = agent.origin() == AgentOrigin.CONFIG ? Future.succeededFuture(base)
                : egress.address(agent).map(base::connectingTo);
        return aimed.compose(e -> profile(agent, e).map(p -> e.withVersion(p.version())));
    }

    /** Whether the agent streams (from its card; true when it serves none). */
    Future<Boolean> streams(RegisteredAgent agent, AgentEndpoint endpoint) {
        return profile(agent, endpoint).map(Profile::streaming);
    }

    private Future<Profile> profile(RegisteredAgent agent, AgentEndpoint endpoint) {
        return profiles.computeIfAbsent(agent.id(), id -> client.fetchCard(endpoint)
                .map(AgentTargets::fromCard)
                .otherwise(e -> fromRegistration(agent)));
    }

    /** The agent changed or went: its card is read again at its next call. */
    void forget(String agentId) {
        profiles.remove(agentId);
    }

    /** As the chat bridge reads a card (Discovery): 1.0 when any JSON-RPC interface says 1.x, else 0.3. */
    static Profile fromCard(AgentCard card) {
        boolean v1 = card.interfaces().stream()
                .filter(AgentInterface::isJsonRpc)
                .anyMatch(i -> i.protocolVersion() != null && i.protocolVersion().trim().startsWith("1."));
        return new Profile(v1 ? ProtocolVersion.V1_0 : ProtocolVersion.V0_3, card.capabilities().streaming());
    }

    /** No card: the versions it registered with (1.0 first), streaming assumed. */
    static Profile fromRegistration(RegisteredAgent agent) {
        boolean v1 = agent.protocolVersions().isEmpty() || agent.protocolVersions().stream()
                .anyMatch(v -> VersionDetector.parse(v).orElse(null) == ProtocolVersion.V1_0);
        return new Profile(v1 ? ProtocolVersion.V1_0 : ProtocolVersion.V0_3, true);
    }
}
