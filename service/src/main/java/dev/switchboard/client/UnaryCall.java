package dev.switchboard.client;

import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.time.Instant;

/**
 * A call answered by one whole body (GetTask, CancelTask, ListTasks, the card): the exchange, the
 * body, then {@link Interpretation} turns status and body into the value or a {@link CallException}.
 */
final class UnaryCall {

    /** Reads a complete reply; throws {@link CallException} when it is a failure. */
    @FunctionalInterface
    interface Interpretation<T> {
        T interpret(int status, Buffer body, Duration retryAfter);
    }

    private UnaryCall() {}

    /** Must run on the calling context; the promise is completed there. */
    static <T> void run(Exchange exchange, int maxBodyBytes, long bodyIdleTimeoutMs, Interpretation<T> interpretation,
            Promise<T> promise) {
        exchange.start(response -> BodyReader.read(exchange.vertx(), response, maxBodyBytes, bodyIdleTimeoutMs, body -> {
            Duration retryAfter = RetryAfter.parse(response.getHeader("Retry-After"), Instant.now());
            try {
                promise.complete(interpretation.interpret(response.statusCode(), body, retryAfter));
            } catch (RuntimeException e) {
                // a CallException, or a bug in a reader: either way the Future must not stay pending
                promise.fail(e);
            }
        }, failure -> promise.fail(new CallException(failure))), failure -> promise.fail(new CallException(failure)));
    }
}
