package dev.switchboard.testkit;

import dev.switchboard.protocol.ProtocolVersion;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Serves one testkit agent from the command line, to try a client (such as {@code switchboard check}) on an agent that
 * breaks the contract on purpose:
 *
 * <pre>java -cp service/target/switchboard-app.jar dev.switchboard.testkit.ServeTestAgent --port 9001 --behavior /newcontext</pre>
 *
 * Options: {@code --port N} (0 = any free port), {@code --behavior DIRECTIVE} (the default behaviour, e.g.
 * {@code "/busy 1"}), {@code --versions 1.0,0.3}, {@code --dedupe}, {@code --no-streaming}, {@code --name NAME}.
 * Prints the endpoint URL on stdout, then serves until the process is stopped.
 */
public final class ServeTestAgent {

    private ServeTestAgent() {}

    public static void main(String[] args) throws Exception {
        TestAgentOptions options = TestAgentOptions.echo("testkit");
        int port = 0;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--port" -> port = Integer.parseInt(value(args, ++i, a));
                    case "--behavior" -> options = options.withDefaultBehavior(value(args, ++i, a));
                    case "--name" -> options = options.withName(value(args, ++i, a));
                    case "--dedupe" -> options = options.withDedupe(true);
                    case "--no-streaming" -> options = options.withStreaming(false);
                    case "--versions" -> {
                        List<ProtocolVersion> versions = new ArrayList<>();
                        for (String v : value(args, ++i, a).split(",")) {
                            versions.add(switch (v.strip()) {
                                case "1.0" -> ProtocolVersion.V1_0;
                                case "0.3" -> ProtocolVersion.V0_3;
                                default -> throw new IllegalArgumentException("--versions takes 1.0 and 0.3, not " + v);
                            });
                        }
                        options = options.withVersions(versions.toArray(ProtocolVersion[]::new));
                    }
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("ServeTestAgent: " + e.getMessage());
            System.err.println("usage: ServeTestAgent [--port N] [--behavior DIRECTIVE] [--versions 1.0,0.3] [--dedupe] "
                    + "[--no-streaming] [--name NAME]");
            System.exit(2);
            return;
        }
        Vertx vertx = Vertx.vertx();
        TestAgent agent = TestAgent.start(vertx, options, port).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        System.out.println(agent.url());
        System.out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.close();
            vertx.close();
            stopped.countDown();
        }));
        stopped.await();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
