package dev.switchboard.registry;

import dev.switchboard.protocol.model.AgentSkill;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One agent the gateway routes to.
 *
 * @param headers static headers sent on every call to the agent (credentials included), already resolved
 * @param callerForwarding what the agent is told of the caller's identity beyond the caller-id header (configured
 *     AgentBackends only; {@link CallerForwarding#NONE} by default)
 */
public record RegisteredAgent(
        String id,
        String name,
        String url,
        String description,
        String version,
        List<AgentSkill> skills,
        List<String> defaultInputModes,
        List<String> defaultOutputModes,
        List<String> protocolVersions,
        Map<String, String> headers,
        AgentLimits limits,
        AgentOrigin origin,
        Instant registeredAt,
        Instant lastSeen,
        CallerForwarding callerForwarding) {

    /** What the gateway passes on of a caller's verified identity (AgentBackend {@code spec.auth}). */
    public enum CallerForwarding {
        /** Only the caller-id header. */
        NONE,
        /** {@code X-Switchboard-Caller-JWT}: a short-lived JWT Switchboard signs ({@code auth.callerJwt: true}). */
        SIGNED,
        /** The JWT caller's own bearer token as {@code Authorization} ({@code auth.passThrough: true}). */
        PASS_THROUGH
    }

    public RegisteredAgent(String id, String name, String url, String description, String version,
            List<AgentSkill> skills, List<String> defaultInputModes, List<String> defaultOutputModes,
            List<String> protocolVersions, Map<String, String> headers, AgentLimits limits, AgentOrigin origin,
            Instant registeredAt, Instant lastSeen) {
        this(id, name, url, description, version, skills, defaultInputModes, defaultOutputModes, protocolVersions,
                headers, limits, origin, registeredAt, lastSeen, CallerForwarding.NONE);
    }

    public RegisteredAgent {
        callerForwarding = callerForwarding == null ? CallerForwarding.NONE : callerForwarding;
        skills = skills == null ? List.of() : List.copyOf(skills);
        defaultInputModes = defaultInputModes == null ? List.of() : List.copyOf(defaultInputModes);
        defaultOutputModes = defaultOutputModes == null ? List.of() : List.copyOf(defaultOutputModes);
        protocolVersions = protocolVersions == null ? List.of() : List.copyOf(protocolVersions);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        limits = limits == null ? AgentLimits.DEFAULTS : limits;
    }

    public RegisteredAgent seenAt(Instant when) {
        return new RegisteredAgent(id, name, url, description, version, skills, defaultInputModes,
                defaultOutputModes, protocolVersions, headers, limits, origin, registeredAt, when, callerForwarding);
    }

    /** True when any skill carries any of the tags (the registry's list filter). */
    public boolean hasAnyTag(java.util.Collection<String> tags) {
        for (AgentSkill s : skills) {
            for (String t : s.tags()) {
                if (tags.contains(t)) {
                    return true;
                }
            }
        }
        return false;
    }
}
