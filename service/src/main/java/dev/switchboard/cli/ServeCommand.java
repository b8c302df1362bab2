package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.config.ConfigException;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.SwitchboardConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code switchboard serve --config FILE}: runs the service from a configuration file; with {@code --kubernetes},
 * from the cluster's resources, kept in force while it runs.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run Switchboard from a YAML configuration file (AgentBackend, Binding, Secret, Server), "
                + "or with --kubernetes from the cluster's resources.")
public final class ServeCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "The configuration file (required without "
            + "--kubernetes; with it, optional and holding only the Server resource).")
    Path config;

    @Option(names = "--kubernetes", description = "Watch mode: read AgentBackend, Binding, SlackApp and Trigger "
            + "resources (switchboard.dev/v1) and their Secrets from the API server and apply changes live.")
    boolean kubernetes;

    @Option(names = "--namespace", paramLabel = "NS", description = "Watch mode: the namespace to watch (default: "
            + "the pod's own, else the kubeconfig's).")
    String namespace;

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
        if (config == null && !kubernetes) {
            logs.fatal("switchboard serve: --config FILE is required (or --kubernetes for watch mode)");
            EarlyVertx.discard();
            return 2;
        }
        if (namespace != null && !kubernetes) {
            logs.fatal("switchboard serve: --namespace is for watch mode: add --kubernetes");
            EarlyVertx.discard();
            return 2;
        }
        SwitchboardConfig cfg;
        try {
            cfg = config == null ? SwitchboardConfig.empty() : new ConfigLoader(System.getenv()).load(config);
            if (kubernetes) {
                WatchMode.checkFile(cfg, config == null ? "(no --config)" : config.toString());
            }
        } catch (ConfigException e) {
            logs.fatal("switchboard serve: invalid configuration: " + e.getMessage());
            EarlyVertx.discard();
            return 2;
        }
        if (port != null) {
            cfg = cfg.withServer(cfg.server().withListen(cfg.server().host(), port));
        }
        if (insecure) {
            cfg = cfg.withServer(cfg.server().withInsecure(true));
        }
        if (kubernetes) {
            return watch(cfg);
        }
        Vertx vertx = EarlyVertx.take();
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

    private int watch(SwitchboardConfig cfg) throws Exception {
        Vertx vertx = EarlyVertx.take();
        KubernetesClient client = new KubernetesClientBuilder().build();
        WatchMode.Running running;
        try {
            running = WatchMode.start(vertx, cfg, client, namespace, Duration.ofSeconds(60)).follow();
        } catch (Exception e) {
            logs.fatal("switchboard serve: could not start in watch mode: " + e.getMessage());
            client.close();
            vertx.close();
            return 1;
        }
        System.out.println("Switchboard is serving on " + running.app().baseUrl() + ", watching namespace "
                + running.watch().namespace() + "; gateway at " + running.app().baseUrl() + "/a2a/{agentId}");
        // stop applying changes as the app closes (hooks run together; the watch stops at once)
        Runtime.getRuntime().addShutdownHook(new Thread(running.watch()::close, "switchboard-watch-stop"));
        Shutdown.awaitSignal(running.app(), vertx);
        return 0;
    }
}
