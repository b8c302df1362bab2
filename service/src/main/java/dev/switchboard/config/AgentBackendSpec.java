package dev.switchboard.config;

import dev.switchboard.bridge.Binding;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentLimits;
import java.util.List;
import java.util.Map;

/**
 * An {@code AgentBackend} resource: one agent.
 *
 * @param url the endpoint as written
 * @param dialect {@code a2a} or {@code kagent-v1}
 * @param agentRefNamespace kagent-v1: the agent's namespace (defaults to the resource's)
 * @param agentRefName kagent-v1: the agent's name (defaults to the resource's)
 * @param headers static headers sent on every call
 * @param tokenSecretRef optional bearer token the gateway sends as {@code Authorization}
 * @param skills optional; else taken from the agent's card
 * @param labels {@code metadata.labels}: what AccessPolicy selectors match
 */
public record AgentBackendSpec(
        String name,
        String namespace,
        String url,
        String dialect,
        String agentRefNamespace,
        String agentRefName,
        String description,
        Map<String, String> headers,
        SecretRef tokenSecretRef,
        AgentLimits limits,
        List<AgentSkill> skills,
        Map<String, String> labels) {

    public AgentBackendSpec {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** Without labels. */
    public AgentBackendSpec(String name, String namespace, String url, String dialect, String agentRefNamespace,
            String agentRefName, String description, Map<String, String> headers, SecretRef tokenSecretRef,
            AgentLimits limits, List<AgentSkill> skills) {
        this(name, namespace, url, dialect, agentRefNamespace, agentRefName, description, headers, tokenSecretRef,
                limits, skills, Map.of());
    }

    public static final String DIALECT_A2A = Binding.DIALECT_A2A;
    public static final String DIALECT_KAGENT = Binding.DIALECT_KAGENT;
}
