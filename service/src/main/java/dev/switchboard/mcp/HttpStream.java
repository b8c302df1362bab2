package dev.switchboard.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * One HTTP response the SDK writes JSON-RPC messages to: the answer to one POSTed request, or a session's listening
 * {@code GET} stream. A POST's response is plain JSON when the first message is that request's response (the common
 * case, and the cheapest), and turns into SSE when a notification (progress) comes first; a GET is SSE from the start.
 * Everything is written on the response's own Vert.x context. Notifications meet a full write queue by being dropped
 * (progress is advisory, and a client that does not read must not make us buffer an agent's whole stream); the
 * request's own response is always written.
 */
final class HttpStream implements McpStreamableServerTransport {

    private static final String EVENT_STREAM = "text/event-stream";

    private final Vertx vertx;
    private final Context context;
    private final HttpServerResponse response;
    private final McpJsonMapper json;
    private final long keepaliveMs;
    private boolean sse;
    private boolean closed;
    private long keepaliveTimer = -1;
    private volatile Runnable gone = () -> {};

    private HttpStream(Vertx vertx, Context context, HttpServerResponse response, McpJsonMapper json,
            Duration keepalive) {
        this.vertx = vertx;
        this.context = context;
        this.response = response;
        this.json = json;
        this.keepaliveMs = keepalive.toMillis();
        response.closeHandler(v -> {
            stopKeepalive();
            closed = true;
            gone.run();
        });
    }

    /** Run when the client goes away before the response ended (its connection closed). */
    HttpStream onGone(Runnable action) {
        this.gone = action;
        return this;
    }

    /** The answer to one POSTed request: JSON or SSE, as its first message decides. */
    static HttpStream forRequest(Vertx vertx, HttpServerResponse response, McpJsonMapper json, Duration keepalive) {
        return new HttpStream(vertx, vertx.getOrCreateContext(), response, json, keepalive);
    }

    /** A session's listening stream ({@code GET /mcp}): SSE headers at once. */
    static HttpStream listening(Vertx vertx, HttpServerResponse response, McpJsonMapper json, Duration keepalive) {
        HttpStream s = new HttpStream(vertx, vertx.getOrCreateContext(), response, json, keepalive);
        s.startSse();
        return s;
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return sendMessage(message, null);
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, String messageId) {
        return Mono.create(sink -> onContext(() -> {
            write(message);
            sink.success();
        }));
    }

    private void write(McpSchema.JSONRPCMessage message) {
        if (closed || response.closed() || response.ended()) {
            return;
        }
        String text;
        try {
            text = json.writeValueAsString(message);
        } catch (IOException e) {
            throw new IllegalStateException("an MCP message does not serialize", e);
        }
        boolean answer = message instanceof McpSchema.JSONRPCResponse;
        if (!sse) {
            if (answer) {
                closed = true;
                response.putHeader("Content-Type", "application/json").end(text);
                return;
            }
            startSse();
        }
        if (!answer && response.writeQueueFull()) {
            return; // a notification to a client that is not reading: dropped, not queued
        }
        // no event ids: the server keeps no history to replay (Last-Event-ID), so it offers none
        response.write("event: message\ndata: " + text + "\n\n");
    }

    private void startSse() {
        sse = true;
        response.setChunked(true)
                .putHeader("Content-Type", EVENT_STREAM)
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        response.write(": open\n\n");
        keepaliveTimer = vertx.setPeriodic(keepaliveMs, t -> {
            if (!response.closed() && !response.ended() && !response.writeQueueFull()) {
                response.write(": keepalive\n\n");
            }
        });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return json.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.create(sink -> onContext(() -> {
            close0();
            sink.success();
        }));
    }

    @Override
    public void close() {
        onContext(this::close0);
    }

    private void close0() {
        stopKeepalive();
        if (closed) {
            return;
        }
        closed = true;
        if (response.ended() || response.closed()) {
            return;
        }
        if (!sse) {
            // closed with nothing written (a cancelled request): an empty stream, no answer (MCP cancellation)
            startSse();
            stopKeepalive();
        }
        response.end();
    }

    private void stopKeepalive() {
        if (keepaliveTimer >= 0) {
            vertx.cancelTimer(keepaliveTimer);
            keepaliveTimer = -1;
        }
    }

    private void onContext(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }
}
