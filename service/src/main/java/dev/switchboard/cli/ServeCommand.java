package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.config.ConfigException;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.SwitchboardConfig;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code switchboard serve --config FILE}: runs the service from a configuration file. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run Switchboard from a YAML configuration file (AgentBackend, Binding, Secret, Server).")
public final class ServeCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The configuration file.")
    Path config;

    @Option(names = "--port", description = "Overrides the port of the Server resource's listen address.")
    Integer port;

    @Option(names = "--insecure",
            description = "Allow listening beyond loopback without API keys, admin token or web-chat identity.")
    boolean insecure;

    @Mixin
    LogOptions logs = new LogOptions();

    @Override
    public Integer call() throws Exception {
        logs.install();
        SwitchboardConfig cfg;
        try {
            cfg = new ConfigLoader(System.getenv()).load(config);
        } catch (ConfigException e) {
            logs.fatal("switchboard serve: invalid configuration: " + e.getMessage());
            return 2;
        }
        if (port != null) {
            cfg = cfg.withServer(cfg.server().withListen(cfg.server().host(), port));
        }
        if (insecure) {
            cfg = cfg.withServer(cfg.server().withInsecure(true));
        }
        Vertx vertx = Vertx.vertx();
        SwitchboardApp app;
        try {
            app = SwitchboardApp.start(vertx, cfg).await();
        } catch (Exception e) {
            logs.fatal("switchboard serve: could not start: " + e.getMessage());
            vertx.close();
            return 1;
        }
        System.out.println("Switchboard is serving on " + app.baseUrl() + " with " + cfg.backends().size()
                + " configured agent(s); gateway at " + app.baseUrl() + "/a2a/{agentId}");
        Shutdown.awaitSignal(app, vertx);
        return 0;
    }
}
