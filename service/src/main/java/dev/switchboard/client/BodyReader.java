package dev.switchboard.client;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.CallFailure.Malformed;
import dev.switchboard.protocol.CallFailure.Transport;
import dev.switchboard.protocol.CallFailure.TransportKind;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;

/**
 * Collects a whole (non-streaming) response body. It is capped, and an idle limit applies once the
 * headers are in: without one, an agent that stalls mid-body would leave its call's Future pending for ever.
 */
final class BodyReader {

    private BodyReader() {}

    /**
     * Exactly one of the handlers is called, on the response's context. The idle limit is a timer of ours,
     * cancelled when the body ends or fails: the request's own idle timeout (which this used) stays armed after
     * the response ended, and kept the request, its response and the value read from it (every card fetched,
     * every task read) reachable until it fired — the timeout's length after every call (issue 9, bounded memory).
     */
    static void read(Vertx vertx, HttpClientResponse response, int maxBytes, long idleTimeoutMs,
            Handler<Buffer> onBody, Handler<CallFailure> onFailure) {
        Buffer collected = Buffer.buffer();
        boolean[] failed = {false};
        long[] timer = {-1};
        Runnable disarm = () -> {
            if (timer[0] != -1) {
                vertx.cancelTimer(timer[0]);
                timer[0] = -1;
            }
        };
        Runnable arm = () -> {
            disarm.run();
            timer[0] = vertx.setTimer(Math.max(1, idleTimeoutMs), t -> {
                timer[0] = -1;
                if (!failed[0]) {
                    failed[0] = true;
                    response.request().reset();
                    onFailure.handle(new Transport(TransportKind.LOST,
                            "no response data within " + idleTimeoutMs + " ms"));
                }
            });
        };
        arm.run();
        response.handler(chunk -> {
            if (failed[0]) {
                return;
            }
            if (collected.length() + chunk.length() > maxBytes) {
                failed[0] = true;
                disarm.run();
                response.request().reset();
                onFailure.handle(new Malformed("response body larger than " + maxBytes + " bytes"));
                return;
            }
            arm.run();
            collected.appendBuffer(chunk);
        });
        response.exceptionHandler(cause -> {
            disarm.run();
            if (!failed[0]) {
                failed[0] = true;
                onFailure.handle(new Transport(TransportKind.LOST, Exchange.describe(cause)));
            }
        });
        response.endHandler(v -> {
            disarm.run();
            if (!failed[0]) {
                onBody.handle(collected);
            }
        });
    }
}
