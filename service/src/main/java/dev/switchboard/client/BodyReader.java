package dev.switchboard.client;

import dev.switchboard.client.CallFailure.Malformed;
import dev.switchboard.client.CallFailure.Transport;
import dev.switchboard.client.CallFailure.TransportKind;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;

/**
 * Collects a whole (non-streaming) response body. It is capped, and an idle limit applies once the
 * headers are in: without one, an agent that stalls mid-body would leave its call's Future pending for ever.
 */
final class BodyReader {

    private BodyReader() {}

    /** Exactly one of the handlers is called, on the response's context. */
    static void read(HttpClientResponse response, int maxBytes, long idleTimeoutMs,
            Handler<Buffer> onBody, Handler<CallFailure> onFailure) {
        response.request().idleTimeout(idleTimeoutMs);
        Buffer collected = Buffer.buffer();
        boolean[] failed = {false};
        response.handler(chunk -> {
            if (failed[0]) {
                return;
            }
            if (collected.length() + chunk.length() > maxBytes) {
                failed[0] = true;
                response.request().reset();
                onFailure.handle(new Malformed("response body larger than " + maxBytes + " bytes"));
                return;
            }
            collected.appendBuffer(chunk);
        });
        response.exceptionHandler(cause -> {
            if (!failed[0]) {
                failed[0] = true;
                onFailure.handle(new Transport(TransportKind.LOST, Exchange.describe(cause)));
            }
        });
        response.endHandler(v -> {
            if (!failed[0]) {
                onBody.handle(collected);
            }
        });
    }
}
