package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Blocks until the JVM is asked to stop, then closes the app and Vert.x in order. */
final class Shutdown {

    private static final long STEP_SECONDS = 15;

    private Shutdown() {}

    static void awaitSignal(SwitchboardApp app, Vertx vertx) throws InterruptedException {
        CountDownLatch forever = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // waited for from this thread: a callback on an event loop would never run once Vert.x is closed
            await(app.close());
            await(vertx.close());
        }, "switchboard-shutdown"));
        forever.await();
    }

    private static void await(Future<?> f) {
        try {
            f.toCompletionStage().toCompletableFuture().get(STEP_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("switchboard: shutdown step did not finish cleanly: " + e);
        }
    }
}
