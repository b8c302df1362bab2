import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;

/**
 * Bench-only instant agent for the bridge benchmark (not part of the product): the test kit's echo agent
 * (the demo's), in its own JVM so that what it records stays out of the measured Switchboard's heap.
 *
 * By default it ends each stream with the full completed Task ({@code /fulltask}), as the agent contract asks, so
 * a turn settles on its last event; the plain echo ends on a status update, and the bridge then reads the task
 * back after the contract's {@code settleDelay} (1 s), which would dominate every latency.
 *
 * <p>Usage: {@code java -cp switchboard-app.jar BridgeAgent PORT [BEHAVIOUR]}; prints {@code READY url} when listening.
 */
public final class BridgeAgent {
    public static void main(String[] args) throws Exception {
        Vertx vertx = Vertx.vertx();
        TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo("echo").withDefaultBehavior(args.length > 1 ? args[1] : "/fulltask"), Integer.parseInt(args[0]))
                .toCompletionStage().toCompletableFuture().get();
        System.out.println("READY " + agent.url());
        System.out.flush();
    }
}
