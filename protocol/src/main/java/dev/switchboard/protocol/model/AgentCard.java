package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * An agent's self-description, version-neutral. {@code interfaces} is in preference order (first =
 * preferred), as 1.0's {@code supportedInterfaces}; a 0.3 card reads as its url/preferredTransport
 * first, then additionalInterfaces. Top-level fields the model does not interpret (provider,
 * securitySchemes, security requirements, signatures, unknown members) are kept verbatim in
 * {@code extra} (null when there are none), so a card rewritten in the same version loses nothing;
 * writing the other version converts the security shapes (see {@code CardCodec}).
 */
public record AgentCard(
        String name,
        String description,
        String version,
        List<AgentInterface> interfaces,
        AgentCapabilities capabilities,
        List<String> defaultInputModes,
        List<String> defaultOutputModes,
        List<AgentSkill> skills,
        String documentationUrl,
        String iconUrl,
        ObjectNode extra) {

    public AgentCard {
        interfaces = interfaces == null ? List.of() : List.copyOf(interfaces);
        capabilities = capabilities == null ? new AgentCapabilities(false, false, false, false, List.of()) : capabilities;
        defaultInputModes = defaultInputModes == null ? List.of() : List.copyOf(defaultInputModes);
        defaultOutputModes = defaultOutputModes == null ? List.of() : List.copyOf(defaultOutputModes);
        skills = skills == null ? List.of() : List.copyOf(skills);
    }

    public AgentCard withInterfaces(List<AgentInterface> newInterfaces) {
        return new AgentCard(name, description, version, newInterfaces, capabilities, defaultInputModes,
                defaultOutputModes, skills, documentationUrl, iconUrl, extra);
    }
}
