package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;

/** Blocks until the JVM is asked to stop, then closes the app and Vert.x in order. */
final class Shutdown {

    private Shutdown() {}

    static void awaitSignal(SwitchboardApp app, Vertx vertx) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.close().eventually(vertx::close).onComplete(ar -> stopped.countDown());
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "switchboard-shutdown"));
        stopped.await();
    }
}
