package dev.switchboard.testkit;

import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentExtension;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.protocol.model.AgentSkill;
import java.util.ArrayList;
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
 * @param interfaceBinding the transport the card's interfaces advertise ({@code JSONRPC}); the agent answers
 *     JSON-RPC at its endpoint whatever the card says, so another value is a card that lies
 * @param extensions the card's {@code capabilities.extensions}, e.g. one marked required
 * @param unimplemented methods the agent does not implement: calls to them get -32601 (e.g. CancelTask, and the
 *     task keeps running; SubscribeToTask; ListTasks)
 * @param dedupe when true, a send whose messageId already started a task runs nothing again: it is answered
 *     with that task (a stream follows it), as the agent contract asks of a 1.0 agent
 */
public record TestAgentOptions(
        String name,
        String description,
        Set<ProtocolVersion> versions,
        boolean streaming,
        Behavior defaultBehavior,
        List<AgentSkill> skills,
        String interfaceBinding,
        List<AgentExtension> extensions,
        Set<A2aMethod> unimplemented,
        boolean dedupe) {

    public TestAgentOptions {
        Objects.requireNonNull(name, "name");
        description = description == null ? "Switchboard testkit agent" : description;
        if (versions == null || versions.isEmpty()) {
            throw new IllegalArgumentException("a test agent serves at least one A2A version");
        }
        versions = Set.copyOf(versions);
        defaultBehavior = defaultBehavior == null ? Behavior.echo() : defaultBehavior;
        skills = skills == null || skills.isEmpty() ? List.of(echoSkill()) : List.copyOf(skills);
        interfaceBinding = interfaceBinding == null || interfaceBinding.isBlank() ? AgentInterface.JSONRPC : interfaceBinding;
        extensions = extensions == null ? List.of() : List.copyOf(extensions);
        unimplemented = unimplemented == null ? Set.of() : Set.copyOf(unimplemented);
    }

    /** The options as they were before the card quirks: JSON-RPC, no extensions, every method, no dedupe. */
    public TestAgentOptions(String name, String description, Set<ProtocolVersion> versions, boolean streaming,
            Behavior defaultBehavior, List<AgentSkill> skills) {
        this(name, description, versions, streaming, defaultBehavior, skills, null, null, null, false);
    }

    /** An echo agent serving A2A 1.0 and 0.3 with streaming. */
    public static TestAgentOptions echo(String name) {
        return new TestAgentOptions(name, null, EnumSet.allOf(ProtocolVersion.class), true, Behavior.echo(), null);
    }

    /**
     * An agent speaking kagent's dialect ("kagent-v1"): A2A 1.0 only, streaming, and a card listing kagent's
     * human-in-the-loop extension ({@link KagentHitl#cardExtension()}, not required). A call that sends
     * {@code A2A-Extensions: https://kagent.dev/extensions/hitl/v1} activates it (echoed in the same response
     * header), so {@code /approve}, {@code /approvemany}, {@code /approvenested} and {@code /askuser} pause with the
     * structured request; {@code /steps} and {@code /kfail} work without it.
     */
    public static TestAgentOptions kagent(String name) {
        return echo(name).withVersions(ProtocolVersion.V1_0).withDescription("Switchboard testkit agent speaking kagent-v1")
                .withKagentHitl(true);
    }

    /** Lists (or drops) kagent's hitl/v1 extension on the card, keeping the other extensions. */
    public TestAgentOptions withKagentHitl(boolean hitl) {
        List<AgentExtension> others = extensions.stream().filter(e -> !KagentHitl.URI.equals(e.uri())).toList();
        List<AgentExtension> listed = new ArrayList<>(others);
        if (hitl) {
            listed.add(KagentHitl.cardExtension());
        }
        return withExtensions(listed);
    }

    /** True when the card lists kagent's hitl/v1 extension: only then can a call activate it. */
    public boolean kagentHitl() {
        return extensions.stream().anyMatch(e -> KagentHitl.URI.equals(e.uri()));
    }

    public TestAgentOptions withName(String newName) {
        return new TestAgentOptions(newName, description, versions, streaming, defaultBehavior, skills, interfaceBinding,
                extensions, unimplemented, dedupe);
    }

    public TestAgentOptions withDescription(String newDescription) {
        return new TestAgentOptions(name, newDescription, versions, streaming, defaultBehavior, skills, interfaceBinding,
                extensions, unimplemented, dedupe);
    }

    public TestAgentOptions withVersions(ProtocolVersion... newVersions) {
        return new TestAgentOptions(name, description, Set.copyOf(Arrays.asList(newVersions)), streaming, defaultBehavior,
                skills, interfaceBinding, extensions, unimplemented, dedupe);
    }

    public TestAgentOptions withStreaming(boolean newStreaming) {
        return new TestAgentOptions(name, description, versions, newStreaming, defaultBehavior, skills, interfaceBinding,
                extensions, unimplemented, dedupe);
    }

    public TestAgentOptions withDefaultBehavior(Behavior newDefault) {
        return new TestAgentOptions(name, description, versions, streaming, newDefault, skills, interfaceBinding,
                extensions, unimplemented, dedupe);
    }

    /** The default behaviour given as a directive, e.g. {@code "/stream 5 100"}. */
    public TestAgentOptions withDefaultBehavior(String directive) {
        return withDefaultBehavior(Behavior.parse(directive));
    }

    public TestAgentOptions withSkills(List<AgentSkill> newSkills) {
        return new TestAgentOptions(name, description, versions, streaming, defaultBehavior, newSkills, interfaceBinding,
                extensions, unimplemented, dedupe);
    }

    /** The transport the card's interfaces advertise, e.g. {@code GRPC}: a card with no JSON-RPC interface. */
    public TestAgentOptions withInterfaceBinding(String binding) {
        return new TestAgentOptions(name, description, versions, streaming, defaultBehavior, skills, binding,
                extensions, unimplemented, dedupe);
    }

    public TestAgentOptions withExtensions(List<AgentExtension> newExtensions) {
        return new TestAgentOptions(name, description, versions, streaming, defaultBehavior, skills, interfaceBinding,
                newExtensions, unimplemented, dedupe);
    }

    /** The card lists one extension, with {@code required: true}. */
    public TestAgentOptions withRequiredExtension(String uri) {
        return withExtensions(List.of(new AgentExtension(uri, "required by the testkit agent", true, null)));
    }

    /** Calls to these methods get -32601, as from an agent that does not implement them. */
    public TestAgentOptions withUnimplemented(A2aMethod... methods) {
        return new TestAgentOptions(name, description, versions, streaming, defaultBehavior, skills, interfaceBinding,
                extensions, Set.of(methods), dedupe);
    }

    /** False: CancelTask gets -32601 and the task keeps running. */
    public TestAgentOptions withCancelable(boolean cancelable) {
        Set<A2aMethod> methods = EnumSet.noneOf(A2aMethod.class);
        methods.addAll(unimplemented);
        if (cancelable) {
            methods.remove(A2aMethod.CANCEL_TASK);
        } else {
            methods.add(A2aMethod.CANCEL_TASK);
        }
        return new TestAgentOptions(name, description, versions, streaming, defaultBehavior, skills, interfaceBinding,
                extensions, methods, dedupe);
    }

    public boolean implemented(A2aMethod method) {
        return !unimplemented.contains(method);
    }

    public TestAgentOptions withDedupe(boolean newDedupe) {
        return new TestAgentOptions(name, description, versions, streaming, defaultBehavior, skills, interfaceBinding,
                extensions, unimplemented, newDedupe);
    }

    public boolean serves(ProtocolVersion version) {
        return versions.contains(version);
    }

    private static AgentSkill echoSkill() {
        return new AgentSkill("echo", "Echo", "Answers with the text it was sent, or as a testkit directive says",
                List.of("testkit"), List.of("hello", "/stream 3 100"), List.of("text/plain"), List.of("text/plain"));
    }
}
