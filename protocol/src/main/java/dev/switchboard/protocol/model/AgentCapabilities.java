package dev.switchboard.protocol.model;

import java.util.List;

/** What the agent can do. 0.3 {@code supportsAuthenticatedExtendedCard} reads into {@code extendedAgentCard}. */
public record AgentCapabilities(
        boolean streaming,
        boolean pushNotifications,
        boolean extendedAgentCard,
        boolean stateTransitionHistory,
        List<AgentExtension> extensions) {

    public AgentCapabilities {
        extensions = extensions == null ? List.of() : List.copyOf(extensions);
    }

    public static AgentCapabilities streamingOnly() {
        return new AgentCapabilities(true, false, false, false, List.of());
    }
}
