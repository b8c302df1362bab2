package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.http.RequestBudget;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * G13: a caller resuming a task's relayed stream with {@code Last-Event-ID: <taskId>:<n>} (SubscribeToTask,
 * {@code tasks/resubscribe}, or {@code GET /a2a/{id}/stream}). The events after {@code n} still in this replica's
 * buffer are sent first; then, while the task's stream is live, the caller follows it; when it has ended and the
 * task has not, the caller's call goes on to the agent as a new subscription, whose events continue the numbering.
 * Events no longer held are a gap: a JSON-RPC error naming it, and the caller reads the task (GetTask) instead.
 */
final class StreamResumes {

    static final String LAST_EVENT_ID = "Last-Event-ID";
    private static final Set<String> SUBSCRIBE = Set.of("SubscribeToTask", "tasks/resubscribe");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_ECHO = 100;

    /** An id this gateway gave: the task id, a colon, the event's number. */
    record EventId(String taskId, long seq) {
        static EventId parse(String value) {
            int colon = value.lastIndexOf(':');
            if (colon <= 0 || colon == value.length() - 1 || value.length() - colon > 19) {
                return null;
            }
            for (int i = colon + 1; i < value.length(); i++) {
                if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                    return null;
                }
            }
            return new EventId(value.substring(0, colon), Long.parseLong(value.substring(colon + 1)));
        }
    }

    private final Vertx vertx;
    private final TaskStreams streams;
    private final GatewayMetrics metrics;
    private final GatewaySettings settings;

    StreamResumes(Vertx vertx, TaskStreams streams, GatewayMetrics metrics, GatewaySettings settings) {
        this.vertx = vertx;
        this.streams = streams;
        this.metrics = metrics;
        this.settings = settings;
    }

    /** True when this call is a resume: a subscription that names the last event its caller saw. */
    boolean isResume(HttpServerRequest request, String method) {
        return streams.enabled() && SUBSCRIBE.contains(method) && request.getHeader(LAST_EVENT_ID) != null;
    }

    /**
     * Answers the resume; {@code upstream} starts the call to the agent (given the tap that continues the task's
     * buffer and the missed events to send first) when the stream has to be subscribed again.
     */
    void resume(HttpServerRequest request, String agentId, String callerId, RoutingFields fields, Buffer body,
            CallSlots permit,
            RequestBudget.Reservation bytes, long started, GatewaySpan span, BiConsumer<StreamTap, List<Buffer>> upstream) {
        String raw = request.getHeader(LAST_EVENT_ID).trim();
        EventId last = EventId.parse(raw);
        if (last == null) {
            refuse(request, agentId, fields, permit, bytes, span, GatewayErrorCodes.BAD_EVENT_ID, "invalid Last-Event-ID '"
                    + echo(raw) + "': expected <taskId>:<n>, an id: this gateway sent on the task's stream");
            return;
        }
        String named = paramsId(body);
        if (named != null && !named.equals(last.taskId())) {
            refuse(request, agentId, fields, permit, bytes, span, GatewayErrorCodes.BAD_EVENT_ID, "Last-Event-ID names task '"
                    + echo(last.taskId()) + "' but params.id is '" + echo(named) + "'");
            return;
        }
        TaskBuffer held = streams.find(agentId, last.taskId());
        // another caller's stream is told as if there were none: its existence is not told either
        TaskBuffer buffer = held != null && held.ownedBy(callerId) ? held : null;
        StreamFollower follower = new StreamFollower(vertx, request.response(), permit, bytes, metrics, span, agentId,
                fields.method(), settings.keepaliveInterval().toMillis());
        StreamTap tap = buffer == null ? null : new StreamTap(streams, agentId, callerId, buffer);
        TaskBuffer.Resume found = buffer == null ? new TaskBuffer.Resume.Gap(-1, -1) : buffer.resume(last.seq(), follower, tap);
        if (found instanceof TaskBuffer.Resume.Gap gap) {
            metrics.streamGap(agentId);
            refuse(request, agentId, fields, permit, bytes, span, GatewayErrorCodes.STREAM_GAP, gapMessage(last, gap));
        } else if (found instanceof TaskBuffer.Resume.Following following) {
            metrics.streamResumed(agentId, "buffer");
            follower.start(buffer, following.missed(), started);
        } else if (found instanceof TaskBuffer.Resume.Ended ended && ended.terminal()) {
            metrics.streamResumed(agentId, "buffer");
            follower.start(buffer, ended.missed(), started);
            follower.end();
        } else if (found instanceof TaskBuffer.Resume.Ended ended) {
            metrics.streamResumed(agentId, "agent");
            upstream.accept(tap, ended.missed());
        }
    }

    private static String gapMessage(EventId last, TaskBuffer.Resume.Gap gap) {
        String task = echo(last.taskId());
        String held = gap.oldest() > 0 ? "this replica holds " + task + ":" + gap.oldest() + " to " + task + ":" + gap.newest()
                : gap.newest() > 0 ? "this replica holds none of them (the newest was " + task + ":" + gap.newest() + ")"
                : "this replica holds no stream of the task";
        return "stream gap: the events of task " + task + " after " + task + ":" + last.seq()
                + " are no longer buffered (" + held + "); read the task with GetTask (tasks/get) and subscribe again"
                + " without Last-Event-ID";
    }

    private void refuse(HttpServerRequest request, String agentId, RoutingFields fields, CallSlots permit,
            RequestBudget.Reservation bytes, GatewaySpan span, int code, String message) {
        permit.release();
        bytes.release();
        metrics.record(agentId, fields.method(), GatewayMetrics.Outcome.INVALID_REQUEST, -1);
        span.end(agentId, fields.method(), GatewayMetrics.Outcome.INVALID_REQUEST, 200);
        GatewayReplies.error(request.response(), new GatewayException(fields.id(), code, message,
                GatewayException.Kind.REQUEST), 200, false);
    }

    /** {@code params.id} of the subscription, or null (a body that has none is the agent's to refuse). */
    private static String paramsId(Buffer body) {
        try {
            JsonNode id = JSON.readTree(body.getBytes()).path("params").path("id");
            return id.isTextual() ? id.asText() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String echo(String s) {
        String clean = s.replaceAll("[^\\x20-\\x7e]", "?");
        return clean.length() > MAX_ECHO ? clean.substring(0, MAX_ECHO) + "…" : clean;
    }
}
