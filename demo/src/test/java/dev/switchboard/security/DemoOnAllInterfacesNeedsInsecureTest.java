package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.demo.DemoAgents;
import dev.switchboard.gateway.support.Wait;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * O7 exposure for the demo, which has no credentials: on all interfaces it refuses to start unless told insecure.
 * (Moved here from {@code WildcardListenWithoutCredentialsRefusesToStartTest} with the demo agents.)
 */
@ServerTest
class DemoOnAllInterfacesNeedsInsecureTest {

    private final Vertx vertx = Vertx.vertx();
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        Wait.on(vertx.close());
    }

    @Test
    void theDemoOnAllInterfacesNeedsInsecureToo() {
        String store = "sqlite:" + dir.resolve("demo.db");
        Throwable failure = awaitFailure(DemoAgents.startDemo(vertx, "0.0.0.0", 0, store));
        assertThat(failure.getMessage()).contains("refusing to listen on 0.0.0.0");
        SwitchboardApp app = Wait.on(DemoAgents.startDemo(vertx, "0.0.0.0", 0, store, true));
        Wait.on(app.close());
    }

    private static Throwable awaitFailure(Future<?> f) {
        try {
            f.toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("started, but should have refused");
    }
}
