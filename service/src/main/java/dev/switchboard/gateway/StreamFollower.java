package dev.switchboard.gateway;

import dev.switchboard.http.RequestBudget;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A caller that resumed a live task stream (G13): it is written the events it missed, then each event the stream's
 * source relays, on its own context and in the order given. It holds its call's slots until it ends. A follower too
 * slow to take what it is sent is ended (it may resume again from its last id): the source is never paused for it.
 */
final class StreamFollower implements TaskBuffer.Follower {

    private final Vertx vertx;
    private final Context context;
    private final HttpServerResponse response;
    private final CallSlots permit;
    private final RequestBudget.Reservation bytes;
    private final GatewayMetrics metrics;
    private final GatewaySpan span;
    private final String agentId;
    private final String method;
    private final long keepaliveMs;
    private TaskBuffer buffer;
    private AtomicInteger openStreams;
    private long timer = -1;
    private long lastWriteNanos;
    private boolean done;

    StreamFollower(Vertx vertx, HttpServerResponse response, CallSlots permit, RequestBudget.Reservation bytes,
            GatewayMetrics metrics, GatewaySpan span, String agentId, String method, long keepaliveMs) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.response = response;
        this.permit = permit;
        this.bytes = bytes;
        this.metrics = metrics;
        this.span = span;
        this.agentId = agentId;
        this.method = method;
        this.keepaliveMs = keepaliveMs;
    }

    /** Sends the stream's head and the missed events; must run in the same task of this context as the resume. */
    void start(TaskBuffer following, List<Buffer> missed, long started) {
        this.buffer = following;
        openStreams = metrics.openStreams(agentId);
        openStreams.incrementAndGet();
        metrics.record(agentId, method, GatewayMetrics.Outcome.OK, System.nanoTime() - started);
        response.setStatusCode(200).setChunked(true)
                .putHeader("Content-Type", "text/event-stream")
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        response.closeHandler(v -> {
            buffer.unfollow(this);
            finish(GatewayMetrics.Outcome.CALLER_DISCONNECTED);
        });
        for (Buffer frame : missed) {
            response.write(frame);
        }
        // an empty replay still opens the stream at once: the caller knows it is following
        response.write(": resumed\n\n");
        lastWriteNanos = System.nanoTime();
        long tick = Math.max(50, keepaliveMs / 3);
        timer = vertx.setPeriodic(tick, id -> {
            if (!done && System.nanoTime() - lastWriteNanos >= keepaliveMs * 1_000_000L) {
                response.write(": keepalive\n\n");
                lastWriteNanos = System.nanoTime();
            }
        });
    }

    @Override
    public void event(Buffer frame) {
        context.runOnContext(v -> {
            if (done) {
                return;
            }
            if (response.writeQueueFull()) {
                buffer.unfollow(this);
                finish(GatewayMetrics.Outcome.CALLER_DISCONNECTED);
                response.end();
                return;
            }
            response.write(frame);
            lastWriteNanos = System.nanoTime();
        });
    }

    @Override
    public void end() {
        context.runOnContext(v -> {
            if (!done) {
                // the places first: the caller may call again the moment the stream ends
                finish(GatewayMetrics.Outcome.OK);
                response.end();
            }
        });
    }

    private void finish(GatewayMetrics.Outcome outcome) {
        if (done) {
            return;
        }
        done = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        openStreams.decrementAndGet();
        permit.release();
        bytes.release();
        if (outcome != GatewayMetrics.Outcome.OK) {
            metrics.recordEnd(agentId, method, outcome);
        }
        span.end(agentId, method, outcome, 200);
    }
}
