package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Blocks until the process is asked to stop (SIGTERM, Ctrl+C), then drains and closes the app and Vert.x in order,
 * and returns: the command then ends with exit code 0. SIGTERM and SIGINT are taken from the JVM's default handling
 * (which would end the process with 143 or 130 after the shutdown hooks); a shutdown hook still closes the app when
 * the JVM stops any other way. A second signal during the drain stops the process at once.
 */
final class Shutdown {

    /** Closing the app and Vert.x once the calls are drained. */
    private static final long STEP_SECONDS = 15;

    private Shutdown() {}

    static void awaitSignal(SwitchboardApp app, Vertx vertx) throws InterruptedException {
        CountDownLatch signalled = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean();
        Runnable stop = () -> {
            if (stopping.compareAndSet(false, true)) {
                await(app.shutdown(), app.shutdownGrace().plusSeconds(STEP_SECONDS));
                await(vertx.close(), Duration.ofSeconds(STEP_SECONDS));
            }
        };
        Thread hook = new Thread(stop, "switchboard-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        boolean trapped = trap("TERM", signalled) & trap("INT", signalled);
        if (!trapped) {
            // no signal handling here: the shutdown hook does the work when the JVM stops
            new CountDownLatch(1).await();
        }
        signalled.await();
        // waited for from this thread: a callback on an event loop would never run once Vert.x is closed
        stop.run();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyStopping) {
            // the JVM is stopping anyway
        }
    }

    @SuppressWarnings("removal")
    private static boolean trap(String name, CountDownLatch signalled) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), s -> {
                if (signalled.getCount() == 0) {
                    // a second Ctrl+C or SIGTERM during the drain: the operator wants out now (the store recovers
                    // from an abrupt stop as from kill -9)
                    System.err.println("switchboard: second " + s.getName() + " while draining: stopping now");
                    Runtime.getRuntime().halt(128 + s.getNumber());
                }
                signalled.countDown();
            });
            return true;
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            return false;
        }
    }

    private static void await(Future<?> f, Duration bound) {
        try {
            f.toCompletionStage().toCompletableFuture().get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            org.slf4j.LoggerFactory.getLogger(Shutdown.class).warn("shutdown step did not finish cleanly: {}", e.toString());
        }
    }
}
