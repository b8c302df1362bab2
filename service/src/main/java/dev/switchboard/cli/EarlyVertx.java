package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Vert.x, created on a thread of its own while the main thread parses the command line (picocli reflects over the
 * commands) and reads the configuration: both take a while, and the machine has another core. Begun only for
 * {@code serve} and {@code demo} in the text log format; with {@code --log-format} the command creates it after the
 * format is installed, so that every line of a JSON log is JSON.
 */
final class EarlyVertx {

    private static volatile CompletableFuture<Vertx> early;

    private EarlyVertx() {}

    /** Starts creating Vert.x when the command will need it. */
    static void begin(String[] args) {
        List<String> all = List.of(args);
        if (all.isEmpty() || !(all.get(0).equals("serve") || all.get(0).equals("demo"))
                || all.stream().anyMatch(a -> a.startsWith("--log-format") || a.startsWith("-h")
                        || a.equals("--help") || a.startsWith("-V") || a.equals("--version"))) {
            return;
        }
        CompletableFuture<Vertx> starting = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                starting.complete(SwitchboardApp.newVertx());
            } catch (Throwable e) {
                starting.completeExceptionally(e);
            }
        }, "switchboard-vertx-start");
        thread.setDaemon(true);
        early = starting;
        thread.start();
    }

    /** The Vert.x begun early, or a new one. */
    static Vertx take() {
        CompletableFuture<Vertx> starting = early;
        early = null;
        if (starting != null) {
            try {
                return starting.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                // created again below, where a failure reaches the command as it always did
            }
        }
        return SwitchboardApp.newVertx();
    }

    /** A command that ends before it needs Vert.x closes the one begun for it. */
    static void discard() {
        CompletableFuture<Vertx> starting = early;
        early = null;
        if (starting != null) {
            starting.thenAccept(Vertx::close);
        }
    }
}
