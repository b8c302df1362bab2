package dev.switchboard.demo;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.cli.Demo;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;

/** The {@link Demo} {@code switchboard demo} finds (META-INF/services): the {@link DemoAgents}. */
public final class TestkitDemo implements Demo {

    @Override
    public Future<SwitchboardApp> start(Vertx vertx, String host, int port, String store, boolean insecure) {
        return DemoAgents.startDemo(vertx, host, port, store, insecure);
    }

    @Override
    public List<String> agentNames() {
        return DemoAgents.AGENTS.stream().map(DemoAgents.Agent::name).toList();
    }
}
