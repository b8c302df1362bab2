package dev.switchboard.config;

import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.RegisteredAgent;
import java.util.List;
import java.util.Map;

/**
 * An {@code AgentBackend} resource: one agent.
 *
 * @param url the endpoint as written
 * @param dialect how the agent speaks ({@code spec.dialect}: {@code a2a} or {@code kagent-v1})
 * @param agentRefNamespace kagent-v1: the agent's namespace (defaults to the resource's)
 * @param agentRefName kagent-v1: the agent's name (defaults to the resource's)
 * @param headers static headers sent on every call
 * @param tokenSecretRef optional bearer token the gateway sends as {@code Authorization}
 * @param skills optional; else taken from the agent's card
 * @param callerForwarding {@code auth.callerJwt} / {@code auth.passThrough}: what the agent is told of the caller
 * @param labels {@code metadata.labels}: what AccessPolicy selectors match
 */
public record AgentBackendSpec(
        String name,
        String namespace,
        String url,
        Dialect dialect,
        String agentRefNamespace,
        String agentRefName,
        String description,
        Map<String, String> headers,
        SecretRef tokenSecretRef,
        AgentLimits limits,
        List<AgentSkill> skills,
        RegisteredAgent.CallerForwarding callerForwarding,
        Map<String, String> labels) {

    public AgentBackendSpec {
        callerForwarding = callerForwarding == null ? RegisteredAgent.CallerForwarding.NONE : callerForwarding;
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** Without caller forwarding or labels (tests and resources that set neither). */
    public AgentBackendSpec(String name, String namespace, String url, Dialect dialect, String agentRefNamespace,
            String agentRefName, String description, Map<String, String> headers, SecretRef tokenSecretRef,
            AgentLimits limits, List<AgentSkill> skills) {
        this(name, namespace, url, dialect, agentRefNamespace, agentRefName, description, headers, tokenSecretRef,
                limits, skills, RegisteredAgent.CallerForwarding.NONE, Map.of());
    }
}
