package dev.switchboard.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.CallFailure.Malformed;
import dev.switchboard.protocol.CallFailure.Transport;
import dev.switchboard.protocol.CallFailure.TransportKind;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcResponse;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.sse.SseEvent;
import dev.switchboard.protocol.sse.SseReader;
import dev.switchboard.protocol.sse.SseTooLargeException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * One streaming call (SendStreamingMessage, SubscribeToTask). The reply's Content-Type decides: an
 * SSE body is read event by event, each {@code data:} a JSON-RPC response; anything else is a plain
 * JSON-RPC reply, which is how agents refuse a stream before it starts.
 *
 * <p>Everything runs on the calling context, which is also where the listener is called; only
 * {@link #close} may come from elsewhere, hence the volatile flag it sets before hopping over.
 */
final class StreamCall implements StreamHandle {

    private final Context context;
    private final Exchange exchange;
    private final WireCodec codec;
    private final StreamListener listener;
    private final int maxEventBytes;
    private final int maxBodyBytes;
    private final long bodyIdleTimeoutMs;

    private volatile boolean closed;
    /** The listener has had its one onEnd or onFailure. */
    private boolean done;
    private int events;
    private Duration retryAfter;

    StreamCall(Context context, Exchange exchange, WireCodec codec, StreamListener listener, int maxEventBytes,
            int maxBodyBytes, long bodyIdleTimeoutMs) {
        this.context = context;
        this.exchange = exchange;
        this.codec = codec;
        this.listener = listener;
        this.maxEventBytes = maxEventBytes;
        this.maxBodyBytes = maxBodyBytes;
        this.bodyIdleTimeoutMs = bodyIdleTimeoutMs;
    }

    /** Must run on the calling context. */
    void start() {
        if (closed) {
            return;
        }
        exchange.start(this::onHeaders, failure -> fail(failure, false));
    }

    @Override
    public void close() {
        closed = true;
        if (Vertx.currentContext() == context) {
            exchange.cancel();
        } else {
            context.runOnContext(v -> exchange.cancel());
        }
    }

    private void onHeaders(HttpClientResponse response) {
        if (closed) {
            exchange.reset();
            return;
        }
        int status = response.statusCode();
        retryAfter = RetryAfter.parse(response.getHeader("Retry-After"), Instant.now());
        if (status >= 200 && status < 300 && isEventStream(response.getHeader("Content-Type"))) {
            readEvents(response);
        } else {
            BodyReader.read(exchange.vertx(), response, maxBodyBytes, bodyIdleTimeoutMs, body -> onPlainReply(status, body),
                    failure -> fail(failure, false));
        }
    }

    /** A plain reply to a streaming call: an error before the stream, or (rarely) one result as the whole stream. */
    private void onPlainReply(int status, Buffer body) {
        RpcReply reply = RpcReply.of(status, body, retryAfter);
        if (reply instanceof RpcReply.Failed failed) {
            fail(failed.failure(), false);
            return;
        }
        JsonNode result = ((RpcReply.Result) reply).result();
        StreamEvent event;
        try {
            event = codec.readStreamEvent(result);
        } catch (RuntimeException e) {
            fail(new Malformed("stream result does not parse: " + e.getMessage()), false);
            return;
        }
        deliver(event);
        end();
    }

    private void readEvents(HttpClientResponse response) {
        SseReader reader = new SseReader(maxEventBytes);
        response.handler(chunk -> {
            if (done || closed) {
                return;
            }
            try {
                for (SseEvent event : reader.feed(chunk.getBytes())) {
                    onSseEvent(event);
                    if (done) {
                        return;
                    }
                }
            } catch (SseTooLargeException e) {
                fail(new Malformed(e.getMessage()), events > 0);
            }
        });
        response.exceptionHandler(cause -> fail(new Transport(TransportKind.LOST, Exchange.describe(cause)), events > 0));
        response.endHandler(v -> {
            if (done || closed) {
                return;
            }
            // a last event the agent did not close with a blank line still counts
            for (SseEvent event : reader.finish()) {
                onSseEvent(event);
                if (done) {
                    return;
                }
            }
            end();
        });
    }

    private void onSseEvent(SseEvent sse) {
        StreamEvent event;
        try {
            event = read(sse);
        } catch (CallException e) {
            fail(e.failure(), events > 0);
            return;
        } catch (RuntimeException e) {
            fail(new Malformed("stream event does not parse: " + e.getMessage()), events > 0);
            return;
        }
        deliver(event);
    }

    /** One SSE event as a stream event; an error in it, or an {@code event: error}, is thrown as a {@link CallException}. */
    private StreamEvent read(SseEvent sse) {
        JsonNode json = Json.parse(sse.data());
        if (sse.isError() && json.isObject() && !json.has("error") && json.has("code")) {
            // `event: error` carrying the bare error object rather than a JSON-RPC response
            throw new CallException(RpcReply.rpcError(JsonRpcCodec.readError(json), retryAfter));
        }
        JsonRpcResponse response = JsonRpcCodec.readResponse(json);
        if (response.isError()) {
            throw new CallException(RpcReply.rpcError(response.error(), retryAfter));
        }
        if (sse.isError()) {
            throw new CallException(new Malformed("event: error without an error object"));
        }
        return codec.readStreamEvent(response.result());
    }

    private void deliver(StreamEvent event) {
        if (done || closed) {
            return;
        }
        events++;
        listener.onEvent(event);
    }

    private void end() {
        if (done || closed) {
            return;
        }
        done = true;
        listener.onEnd();
    }

    private void fail(CallFailure failure, boolean afterEvents) {
        if (done || closed) {
            return;
        }
        done = true;
        // an abandoned stream must not keep its connection (and the agent's work) open
        exchange.reset();
        listener.onFailure(failure, afterEvents);
    }

    private static boolean isEventStream(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).strip().startsWith("text/event-stream");
    }
}
