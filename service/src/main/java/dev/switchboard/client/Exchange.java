package dev.switchboard.client;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.CallFailure.Transport;
import dev.switchboard.protocol.CallFailure.TransportKind;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;

/**
 * One HTTP request up to its response headers, with the rules every agent call shares: response
 * headers within a deadline (connecting included) or the request is reset, and transport failures
 * typed as CONNECT (no connection) or LOST (the connection failed after it was made).
 *
 * <p>Runs on one Vert.x context: {@link #start} and {@link #cancel} must be called on it, and every
 * callback comes back on it, so the fields need no locking. Exactly one of the two handlers given to
 * {@code start} is called, unless the exchange is cancelled first.
 */
final class Exchange {

    private final Vertx vertx;
    private final HttpClientAgent client;
    private final RequestOptions options;
    private final Buffer body;
    private final long headersTimeoutMs;

    private HttpClientRequest request;
    private long timer = -1;
    /** Headers arrived, a failure was reported, or the caller cancelled: nothing more to report. */
    private boolean settled;

    /** @param body null for a request without a body (the card GET) */
    Exchange(Vertx vertx, HttpClientAgent client, RequestOptions options, Buffer body, long headersTimeoutMs) {
        this.vertx = vertx;
        this.client = client;
        this.options = options;
        this.body = body;
        this.headersTimeoutMs = headersTimeoutMs;
    }

    Vertx vertx() {
        return vertx;
    }

    void start(Handler<HttpClientResponse> onHeaders, Handler<CallFailure> onFailure) {
        timer = vertx.setTimer(headersTimeoutMs, t -> {
            timer = -1;
            if (!settled) {
                settled = true;
                reset();
                onFailure.handle(new Transport(TransportKind.HEADERS_TIMEOUT,
                        "no response headers within " + headersTimeoutMs + " ms"));
            }
        });
        Future<HttpClientRequest> requested;
        try {
            requested = client.request(options);
        } catch (RuntimeException closedOrInvalid) {
            // a client closed by a shutdown, or options it refuses: a call that could not connect
            requested = Future.failedFuture(closedOrInvalid);
        }
        requested.onComplete(connected -> {
            if (connected.failed()) {
                if (!settled) {
                    settle();
                    onFailure.handle(new Transport(TransportKind.CONNECT, describe(connected.cause())));
                }
                return;
            }
            request = connected.result();
            // failures reach us through the send's future and the response's handlers; without a handler here,
            // our own reset of an abandoned call would be logged at ERROR
            request.exceptionHandler(ignored -> { });
            if (settled) {
                // timed out or cancelled while connecting: the request must not go out
                reset();
                return;
            }
            (body == null ? request.send() : request.send(body)).onComplete(answered -> {
                if (settled) {
                    return;
                }
                settle();
                if (answered.succeeded()) {
                    // until the reader sets its own: a reset of a reply nobody reads must not log at ERROR
                    answered.result().exceptionHandler(ignored -> { });
                    onHeaders.handle(answered.result());
                } else {
                    onFailure.handle(new Transport(TransportKind.LOST, describe(answered.cause())));
                }
            });
        });
    }

    /** Stops the exchange at any stage and suppresses its callbacks. */
    void cancel() {
        settle();
        reset();
    }

    /** Resets the HTTP request (HTTP/1: closes its connection), so a cut or abandoned call frees its server. */
    void reset() {
        if (request != null) {
            request.reset();
        }
    }

    private void settle() {
        settled = true;
        if (timer != -1) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }

    /** The exception's own words: Vert.x's messages name the host, never a request header. */
    static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }
}
