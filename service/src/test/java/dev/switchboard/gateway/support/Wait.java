package dev.switchboard.gateway.support;

import io.vertx.core.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Blocks a test thread on a Vert.x future, never for ever. */
public final class Wait {

    private Wait() {}

    public static <T> T on(Future<T> future) {
        return on(future, 30);
    }

    public static <T> T on(Future<T> future, int seconds) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("future failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no result within " + seconds + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
