package dev.switchboard.client;

import dev.switchboard.AwaitDefaults;
import dev.switchboard.protocol.CallFailure;
import io.vertx.core.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Waits for client Futures in tests. */
final class Calls {

    private Calls() {}

    static <T> T result(Future<T> future) throws Exception {
        try {
            return future.toCompletionStage().toCompletableFuture().get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("call failed: " + e.getCause(), e.getCause());
        }
    }

    /** The failure of a call that must fail with a {@link CallException}. */
    static CallFailure failure(Future<?> future) throws Exception {
        return ((CallException) cause(future)).failure();
    }

    static Throwable cause(Future<?> future) throws Exception {
        try {
            Object value = future.toCompletionStage().toCompletableFuture().get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);
            throw new AssertionError("call succeeded with " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
