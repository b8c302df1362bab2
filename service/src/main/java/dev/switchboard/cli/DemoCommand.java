package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardServer;
import dev.switchboard.demo.DemoAgents;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code switchboard demo}: zero-config start with built-in demo agents (O1). */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start Switchboard with built-in demo agents; no configuration needed.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "8080", description = "HTTP port (default: ${DEFAULT-VALUE}; 0 = any free port).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for all interfaces).")
    String host;

    @Override
    public Integer call() throws Exception {
        Vertx vertx = Vertx.vertx();
        SwitchboardServer server;
        try {
            server = DemoAgents.startDemo(vertx, host, port).await();
        } catch (Exception e) {
            System.err.println("switchboard demo: could not start on " + host + ":" + port + ": " + e.getMessage());
            vertx.close();
            return 1;
        }
        printWelcome(server, System.out);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close().eventually(vertx::close).onComplete(ar -> stopped.countDown());
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "switchboard-shutdown"));
        stopped.await();
        return 0;
    }

    static void printWelcome(SwitchboardServer server, PrintStream out) {
        String base = server.baseUrl();
        out.println("Switchboard demo is running on " + base);
        out.println();
        out.println("  Health:        " + base + "/healthz");
        out.println("  Demo agents:");
        for (DemoAgents.Agent agent : DemoAgents.AGENTS) {
            out.printf("    %-10s %s%n", agent.name(), base + DemoAgents.cardPath(agent.name()));
        }
        out.println();
        out.println("Press Ctrl+C to stop.");
        out.flush();
    }
}
