package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import dev.switchboard.protocol.sse.SseWriter;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * One SSE response carrying a call's events, each a one-line JSON-RPC response echoing the call's id.
 * Headers go out with the first event, so a call that fails before it can still answer plain JSON.
 * The stream ends itself after a Message or a terminal or interrupted status, the moments a2a-js
 * servers close at.
 */
final class EventStream {

    private final HttpServerRequest request;
    private final WireCodec codec;
    private final JsonNode id;
    private final int dropAfter;
    private final boolean endOnPausedTask;
    private int sent;
    private boolean done;
    private boolean released;
    private Runnable onRelease = () -> {};

    /**
     * @param dropAfter cut the connection after this many events (a misbehaviour); negative for never
     * @param endOnPausedTask end after a Task event in input-required or auth-required: a subscription to a
     *     paused task has nothing more to wait for, while a send that answers the pause starts from it
     */
    EventStream(HttpServerRequest request, WireCodec codec, JsonNode id, int dropAfter, boolean endOnPausedTask) {
        this.request = request;
        this.codec = codec;
        this.id = id;
        this.dropAfter = dropAfter;
        this.endOnPausedTask = endOnPausedTask;
        request.response().closeHandler(v -> release());
    }

    /** Runs once when the stream is over, however it ended (done, cut, or the caller hung up). */
    synchronized void onClose(Runnable action) {
        this.onRelease = action;
    }

    synchronized void send(StreamEvent event) {
        if (done) {
            return;
        }
        if (dropAfter == 0) {
            cut();
            return;
        }
        HttpServerResponse response = request.response();
        if (sent == 0) {
            response.setStatusCode(200)
                    .setChunked(true)
                    .putHeader("Content-Type", "text/event-stream")
                    .putHeader("Cache-Control", "no-cache")
                    .putHeader("X-Accel-Buffering", "no");
        }
        Future<Void> written = response.write(SseWriter.data(JsonRpcCodec.result(id, codec.writeStreamEvent(event))));
        sent++;
        if (dropAfter > 0 && sent >= dropAfter) {
            done = true;
            // Closing at once would discard the events still queued for the socket.
            written.onComplete(v -> cut());
        } else if (endsStream(event)) {
            done = true;
            response.end();
            release();
        }
    }

    /** Drops the connection without a proper end, as if the network failed. */
    synchronized void cut() {
        done = true;
        request.response().reset();
        release();
    }

    private boolean endsStream(StreamEvent event) {
        if (event instanceof Message) {
            return true;
        }
        if (event instanceof TaskStatusUpdateEvent update) {
            return update.status().state().isTerminal() || update.status().state().isInterrupted();
        }
        return event instanceof Task task
                && (task.state().isTerminal() || endOnPausedTask && task.state().isInterrupted());
    }

    private synchronized void release() {
        if (!released) {
            released = true;
            onRelease.run();
        }
    }
}
