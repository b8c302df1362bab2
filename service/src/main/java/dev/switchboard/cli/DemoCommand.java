package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code switchboard demo}: zero-config start with built-in demo agents (O1). */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start Switchboard with built-in demo agents; no configuration needed.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "8080", description = "HTTP port (default: ${DEFAULT-VALUE}; 0 = any free port).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for all interfaces, with --insecure).")
    String host;

    @Option(names = "--insecure", description = "Allow listening beyond loopback without credentials (the demo has none).")
    boolean insecure;

    @Option(names = "--store", defaultValue = "sqlite:./data/switchboard-demo.db",
            description = "The embedded store (default: ${DEFAULT-VALUE}).")
    String store;

    @Mixin
    LogOptions logs = new LogOptions();

    @Override
    public Integer call() throws Exception {
        logs.install();
        Demo demo = Demo.find().orElse(null);
        if (demo == null) {
            EarlyVertx.discard();
            logs.fatal("switchboard demo: the demo agents are not in this build (the production jar and image leave the"
                    + " testkit out): run ./switchboard demo from a clone of the repository");
            return 1;
        }
        Vertx vertx = EarlyVertx.take();
        SwitchboardApp app;
        try {
            app = demo.start(vertx, host, port, store, insecure).await();
        } catch (Exception e) {
            logs.fatal("switchboard demo: could not start on " + host + ":" + port + ": " + e.getMessage());
            vertx.close();
            return 1;
        }
        printWelcome(app, demo.agentNames(), System.out);
        Shutdown.awaitSignal(app, vertx);
        return 0;
    }

    static void printWelcome(SwitchboardApp app, List<String> agents, PrintStream out) {
        String base = app.baseUrl();
        out.println("Switchboard demo is running on " + base);
        out.println();
        out.println("  Web chat:      " + base + "/");
        out.println("  Health:        " + base + "/healthz");
        out.println("  Metrics:       " + base + "/metrics");
        out.println("  Agents:        " + base + "/agents");
        out.println("  Demo agents (gateway endpoint, then its card):");
        for (String agent : agents) {
            out.printf("    %-8s %s%n", agent, base + "/a2a/" + agent);
            out.printf("    %-8s %s%n", "", base + "/a2a/" + agent + "/.well-known/agent-card.json");
        }
        out.println();
        out.println("  Try: curl -s -H 'Content-Type: application/json' -d '{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"message/send\",\"params\":{\"message\":{\"kind\":\"message\",\"messageId\":\"m1\","
                + "\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"hello\"}]}}}' " + base + "/a2a/echo");
        out.println();
        out.println("Press Ctrl+C to stop.");
        out.flush();
    }
}
