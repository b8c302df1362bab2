package dev.switchboard.testkit;

import dev.switchboard.protocol.ProtocolVersion;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** One Vert.x and one echo agent per test class, plus whatever other agents a test starts. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AgentTestSupport {

    protected Vertx vertx;
    protected TestAgent agent;
    private final List<TestAgent> started = new ArrayList<>();

    @BeforeAll
    void startAgent() {
        vertx = Vertx.vertx();
        agent = start(TestAgentOptions.echo("echo"));
    }

    @AfterAll
    void stopAgents() {
        started.forEach(a -> await(a.close()));
        await(vertx.close());
    }

    protected TestAgent start(TestAgentOptions options) {
        TestAgent started = await(TestAgent.start(vertx, options, 0));
        this.started.add(started);
        return started;
    }

    protected WireClient client(ProtocolVersion version) {
        return new WireClient(agent.url(), version);
    }

    static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
