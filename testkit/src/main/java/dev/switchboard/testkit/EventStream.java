package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import dev.switchboard.protocol.sse.SseWriter;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.function.Supplier;

/**
 * One SSE response carrying a call's events, each a one-line JSON-RPC response echoing the call's id.
 * Headers go out with the first event, so a call that fails before it can still answer plain JSON.
 * The stream ends itself after a Message or a terminal or interrupted status, the moments a2a-js
 * servers close at.
 */
final class EventStream {

    /**
     * How a stream misbehaves; every count is of events sent, negative for never.
     *
     * @param dropAfter cut the connection after this many events
     * @param endAfter end the response properly after this many events, whatever the task's state
     * @param muteAfter send nothing after this many events; the connection stays open
     * @param withoutTaskId events carry no task id ({@code id} of a Task, {@code taskId} of an update)
     * @param withoutContextId events carry no contextId
     * @param endWithTask end on the full Task (settled) rather than on the status update that settles it
     */
    record Shape(int dropAfter, int endAfter, int muteAfter, boolean withoutTaskId, boolean withoutContextId,
            boolean endWithTask) {

        static final Shape NORMAL = new Shape(-1, -1, -1, false, false, false);

        static Shape dropAfter(int events) {
            return new Shape(events, -1, -1, false, false, false);
        }
    }

    private final HttpServerRequest request;
    private final WireCodec codec;
    private final JsonNode id;
    private final Shape shape;
    private final boolean endOnPausedTask;
    private int sent;
    private boolean done;
    private boolean released;
    private Runnable onRelease = () -> {};
    private Supplier<Task> settledTask;

    /**
     * @param shape how the stream misbehaves ({@link Shape#NORMAL} for not at all)
     * @param endOnPausedTask end after a Task event in input-required or auth-required: a subscription to a
     *     paused task has nothing more to wait for, while a send that answers the pause starts from it
     */
    EventStream(HttpServerRequest request, WireCodec codec, JsonNode id, Shape shape, boolean endOnPausedTask) {
        this.request = request;
        this.codec = codec;
        this.id = id;
        this.shape = shape;
        this.endOnPausedTask = endOnPausedTask;
        request.response().closeHandler(v -> release());
    }

    /** With {@link Shape#endWithTask}: the full Task to end on, read when the task settles. */
    synchronized void endWith(Supplier<Task> task) {
        this.settledTask = task;
    }

    /** Runs once when the stream is over, however it ended (done, cut, or the caller hung up). */
    synchronized void onClose(Runnable action) {
        this.onRelease = action;
    }

    /** How long a dropped stream's last events have to reach the peer before the connection goes. */
    private static final long CUT_DELAY_MS = 100;

    synchronized void send(StreamEvent event) {
        if (done) {
            return;
        }
        if (shape.dropAfter() == 0) {
            cut();
            return;
        }
        if (shape.muteAfter() >= 0 && sent >= shape.muteAfter()) {
            return; // fallen silent: the connection stays open, nothing more is said
        }
        boolean ends = endsStream(event);
        if (ends && shape.endWithTask() && settledTask != null && !(event instanceof Task)) {
            event = settledTask.get(); // the settled Task in place of the update that settled it
        }
        Future<Void> written = write(event);
        if (shape.dropAfter() > 0 && sent >= shape.dropAfter()) {
            done = true;
            // Closing at once would discard the events still queued for the socket, and a close that lands
            // with them can make a client drop the whole response: let the peer read them first.
            io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
            written.onComplete(v -> {
                if (context == null) {
                    cut();
                } else {
                    context.owner().setTimer(CUT_DELAY_MS, t -> cut());
                }
            });
        } else if (ends || shape.endAfter() > 0 && sent >= shape.endAfter()) {
            done = true;
            request.response().end();
            release();
        }
    }

    private Future<Void> write(StreamEvent event) {
        HttpServerResponse response = request.response();
        if (sent == 0) {
            response.setStatusCode(200)
                    .setChunked(true)
                    .putHeader("Content-Type", "text/event-stream")
                    .putHeader("Cache-Control", "no-cache")
                    .putHeader("X-Accel-Buffering", "no");
        }
        sent++;
        return response.write(SseWriter.data(JsonRpcCodec.result(id, codec.writeStreamEvent(withoutIds(event)))));
    }

    /** The event as {@link Shape#withoutTaskId} and {@link Shape#withoutContextId} say. */
    private StreamEvent withoutIds(StreamEvent event) {
        boolean task = shape.withoutTaskId();
        boolean context = shape.withoutContextId();
        if (!task && !context) {
            return event;
        }
        if (event instanceof Task t) {
            return new Task(task ? null : t.id(), context ? null : t.contextId(), t.status(), t.artifacts(), t.history(),
                    t.metadata());
        }
        if (event instanceof TaskStatusUpdateEvent u) {
            return new TaskStatusUpdateEvent(task ? null : u.taskId(), context ? null : u.contextId(), u.status(),
                    u.isFinal(), u.metadata());
        }
        if (event instanceof TaskArtifactUpdateEvent a) {
            return new TaskArtifactUpdateEvent(task ? null : a.taskId(), context ? null : a.contextId(), a.artifact(),
                    a.append(), a.lastChunk(), a.metadata());
        }
        return event;
    }

    /**
     * Drops the connection without a proper end, as if the network failed: the events already written
     * arrive, then the connection closes mid-body. (A reset could make the peer's TCP stack discard
     * events it had received but not yet read.)
     */
    synchronized void cut() {
        done = true;
        request.connection().close();
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
