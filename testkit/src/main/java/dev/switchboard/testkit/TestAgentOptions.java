package dev.switchboard.testkit;

import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentSkill;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How a test agent presents itself and what it does by default.
 *
 * @param name the card's name
 * @param description the card's description
 * @param versions the A2A versions served (at least one); a call in another version gets -32009
 * @param streaming the card's {@code capabilities.streaming}; when false, streaming calls get -32004
 * @param defaultBehavior what the agent does with a message that names no behaviour
 * @param skills the card's skills; empty means one "echo" skill
 */
public record TestAgentOptions(
        String name,
        String description,
        Set<ProtocolVersion> versions,
        boolean streaming,
        Behavior defaultBehavior,
        List<AgentSkill> skills) {

    public TestAgentOptions {
        Objects.requireNonNull(name, "name");
        description = description == null ? "Switchboard testkit agent" : description;
        if (versions == null || versions.isEmpty()) {
            throw new IllegalArgumentException("a test agent serves at least one A2A version");
        }
        versions = Set.copyOf(versions);
        defaultBehavior = defaultBehavior == null ? Behavior.echo() : defaultBehavior;
        skills = skills == null || skills.isEmpty() ? List.of(echoSkill()) : List.copyOf(skills);
    }

    /** An echo agent serving A2A 1.0 and 0.3 with streaming. */
    public static TestAgentOptions echo(String name) {
        return new TestAgentOptions(name, null, EnumSet.allOf(ProtocolVersion.class), true, Behavior.echo(), null);
    }

    public TestAgentOptions withName(String newName) {
        return new TestAgentOptions(newName, description, versions, streaming, defaultBehavior, skills);
    }

    public TestAgentOptions withDescription(String newDescription) {
        return new TestAgentOptions(name, newDescription, versions, streaming, defaultBehavior, skills);
    }

    public TestAgentOptions withVersions(ProtocolVersion... newVersions) {
        return new TestAgentOptions(name, description, Set.copyOf(Arrays.asList(newVersions)), streaming, defaultBehavior, skills);
    }

    public TestAgentOptions withStreaming(boolean newStreaming) {
        return new TestAgentOptions(name, description, versions, newStreaming, defaultBehavior, skills);
    }

    public TestAgentOptions withDefaultBehavior(Behavior newDefault) {
        return new TestAgentOptions(name, description, versions, streaming, newDefault, skills);
    }

    /** The default behaviour given as a directive, e.g. {@code "/stream 5 100"}. */
    public TestAgentOptions withDefaultBehavior(String directive) {
        return withDefaultBehavior(Behavior.parse(directive));
    }

    public TestAgentOptions withSkills(List<AgentSkill> newSkills) {
        return new TestAgentOptions(name, description, versions, streaming, defaultBehavior, newSkills);
    }

    public boolean serves(ProtocolVersion version) {
        return versions.contains(version);
    }

    private static AgentSkill echoSkill() {
        return new AgentSkill("echo", "Echo", "Answers with the text it was sent, or as a testkit directive says",
                List.of("testkit"), List.of("hello", "/stream 3 100"), List.of("text/plain"), List.of("text/plain"));
    }
}
