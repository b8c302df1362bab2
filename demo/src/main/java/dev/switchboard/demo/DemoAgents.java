package dev.switchboard.demo;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.config.BindingSpec;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * O1: the built-in demo agents, testkit agents served in-process under {@code /demo/{name}} on
 * Switchboard's own port and registered in the gateway like configured agents. {@code switchboard demo} reaches them
 * through {@link TestkitDemo}.
 */
public final class DemoAgents {

    /** One demo agent: its name, what it does and which A2A versions it speaks. */
    public record Agent(String name, String description, TestAgentOptions options) {}

    public static final List<Agent> AGENTS = List.of(
            new Agent("echo", "Answers with what you wrote (A2A 1.0 and 0.3). Try /ask, /stream 5 200, /fail",
                    TestAgentOptions.echo("echo")),
            new Agent("writer", "Streams its answer in chunks (A2A 1.0 only)",
                    TestAgentOptions.echo("writer").withVersions(ProtocolVersion.V1_0).withDefaultBehavior("/stream 6 250")),
            new Agent("legacy", "An A2A 0.3 agent that echoes",
                    TestAgentOptions.echo("legacy").withVersions(ProtocolVersion.V0_3)));

    private DemoAgents() {}

    /** The agent's own endpoint (the gateway forwards to it); the trailing slash is part of the mount. */
    public static String endpointPath(String name) {
        return "/demo/" + name + "/";
    }

    public static String cardPath(String name) {
        return endpointPath(name) + ".well-known/agent-card.json";
    }

    /** Starts Switchboard on host:port with its store under ./data, then mounts and registers the demo agents. */
    public static Future<SwitchboardApp> startDemo(Vertx vertx, String host, int port, String store) {
        return startDemo(vertx, host, port, store, false);
    }

    /**
     * As above; a demo has no credentials, so listening beyond loopback needs {@code insecure} (it refuses to
     * start otherwise, like {@code serve}).
     */
    public static Future<SwitchboardApp> startDemo(Vertx vertx, String host, int port, String store, boolean insecure) {
        // C1: a web channel per demo agent, named after it, so a newcomer chats within seconds
        List<BindingSpec> bindings = AGENTS.stream().map(a -> BindingSpec.web("web-" + a.name(), a.name(),
                List.of(a.name()), "demo-user")).toList();
        SwitchboardConfig config = SwitchboardConfig.empty()
                .withServer(ServerSpec.defaults().withListen(host, port).withStore(store).withInsecure(insecure))
                .withBindings(bindings);
        return SwitchboardApp.start(vertx, config).map(app -> {
            Instant now = Instant.now();
            for (Agent a : AGENTS) {
                String endpoint = app.baseUrl() + endpointPath(a.name());
                TestAgentOptions options = a.options().withDescription(a.description());
                app.router().route(endpointPath(a.name()) + "*")
                        .subRouter(TestAgent.router(vertx, options, endpoint, new Recorder()));
                app.registry().putConfigured(new RegisteredAgent(a.name(), a.name(), endpoint, a.description(), "demo",
                        options.skills().stream().map(s -> new AgentSkill(s.id(), s.name(), s.description(),
                                List.of("demo", a.name()), s.examples(), s.inputModes(), s.outputModes())).toList(),
                        List.of("text/plain"), List.of("text/plain"),
                        options.versions().stream().map(ProtocolVersion::label).sorted().toList(),
                        Map.of(), AgentLimits.DEFAULTS, AgentOrigin.CONFIG, now, now));
            }
            app.agentsChanged();
            return app;
        });
    }
}
