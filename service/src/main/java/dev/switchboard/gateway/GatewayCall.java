package dev.switchboard.gateway;

import dev.switchboard.http.ContentLength;
import dev.switchboard.http.RequestBudget;
import dev.switchboard.log.LogContext;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.RegisteredAgent;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.internal.ContextInternal;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One forwarded call, from the upstream request to the last byte relayed. All of its callbacks run
 * on the caller's event loop, so its fields need no locking. {@link #finish} runs exactly once and
 * releases the concurrency slot and the request bytes on every path: reply, agent error, timeout, idle
 * stream, caller gone.
 */
final class GatewayCall implements AgentReply {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayCall.class);

    /** Pre-hashed: looked up in every reply. */
    private static final List<AsciiString> RELAYED_REPLY_HEADERS = List.of(AsciiString.cached("A2A-Extensions"),
            AsciiString.cached("X-A2A-Extensions"), AsciiString.cached("A2A-Version"), AsciiString.cached("Retry-After"));

    private final AgentConnections connections;
    private final HttpServerRequest request;
    private final HttpServerResponse response;
    private final RegisteredAgent agent;
    private final AgentLimits limits;
    private final RoutingFields fields;
    /** The request body, until it is sent (a relayed stream lives long: it keeps nothing it no longer needs). */
    private Buffer body;
    private final CallSlots permit;
    private final RequestBudget.Reservation bytes;
    private final Egress egress;
    /** Writes the upstream request's headers into it, until the request is made. */
    private Consumer<MultiMap> outboundHeaders;
    private final GatewayMetrics metrics;
    private final GatewaySettings settings;
    private final long started;
    private final GatewaySpan span;

    private AgentExchange upstream;
    /** The agent's reply: its head, then (a plain reply) its body as it arrives, or (a stream) its splitter. */
    private HttpResponse replyHead;
    private BodyCollector collected;
    private SseFrameSplitter splitter;
    private String streamType;
    /** The call's event loop: its timers are scheduled there directly (Vert.x's timers also keep a shared map). */
    private final EventLoop loop;
    private ScheduledFuture<?> timeoutTimer;
    private ScheduledFuture<?> streamTimer;
    private boolean done;
    private boolean streaming;
    private boolean streamHeadersSent;
    private long lastAgentEventNanos;
    private long lastWriteNanos;
    private AtomicInteger openStreams;

    private String callerId;
    /** The task's buffer link (G13), or null; {@code missed}: a resume's buffered events, sent before the first. */
    private StreamTap tap;
    private List<Buffer> missed = List.of();
    /** What a plain 2xx reply becomes before the caller gets it (push configs: the caller's URL back); null: as is. */
    private UnaryOperator<Buffer> replyFilter;
    /** The caller went away while the stream is held for a resume (streamBuffer.holdAfterDrop): nothing is written. */
    private boolean callerGone;

    GatewayCall(AgentConnections connections, Egress egress, HttpServerRequest request, RegisteredAgent agent,
            RoutingFields fields, Buffer body, CallSlots permit, RequestBudget.Reservation bytes,
            Consumer<MultiMap> outboundHeaders, GatewayMetrics metrics, GatewaySettings settings, long started, GatewaySpan span) {
        this.span = span;
        this.egress = egress;
        this.bytes = bytes;
        this.connections = connections;
        this.loop = ContextInternal.current().nettyEventLoop();
        this.request = request;
        this.response = request.response();
        this.agent = agent;
        this.limits = agent.limits();
        this.fields = fields;
        this.body = body;
        this.permit = permit;
        this.outboundHeaders = outboundHeaders;
        this.metrics = metrics;
        this.settings = settings;
        this.started = started;
    }

    /** The caller's id, which the call's log lines name. */
    GatewayCall caller(String id) {
        this.callerId = id;
        return this;
    }

    GatewayCall replyFilter(UnaryOperator<Buffer> filter) {
        this.replyFilter = filter;
        return this;
    }

    GatewayCall tap(StreamTap tap, List<Buffer> missed) {
        this.tap = tap;
        this.missed = missed;
        return this;
    }

    void start() {
        long timeoutMs = TimeoutChain.millis(fields.timeoutSeconds(), limits.defaultTimeoutSeconds(), limits.maxTimeoutSeconds());
        timeoutTimer = loop.schedule(() -> {
            timeoutTimer = null;
            fail(AgentFailures.timeout(fields.id(), agent.id()), GatewayMetrics.Outcome.TIMEOUT);
        }, timeoutMs, TimeUnit.MILLISECONDS);
        response.closeHandler(v -> {
            if (!done) {
                callerGone();
            }
        });
        UpstreamTarget target = UpstreamTarget.of(agent.url());
        String uri = target.uri(request.query());
        int connectMs = (int) Math.min(timeoutMs, settings.connectTimeout().toMillis());
        if (agent.origin() == AgentOrigin.CONFIG) {
            // config-file agents are connected to as written (no egress check): nothing to wait for
            send(target, null, uri, connectMs);
        } else {
            egress.address(agent).onComplete(ar -> {
                if (ar.succeeded()) {
                    send(target, ar.result(), uri, connectMs);
                } else {
                    onUpstreamFailure(ar.cause());
                }
            });
        }
    }

    private void send(UpstreamTarget target, InetSocketAddress aimedAt, String uri, int connectMs) {
        if (done) {
            return;
        }
        // one map, both Vert.x's (for the header policy) and Netty's (for the encoder): no copy in between
        HeadersMultiMap headers = HeadersMultiMap.httpHeaders();
        outboundHeaders.accept(headers);
        outboundHeaders = null;
        Buffer sending = body;
        body = null;
        upstream = connections.post(target, aimedAt, uri, headers, sending, connectMs, this);
    }

    @Override
    public void head(HttpResponse head) {
        if (done) {
            return;
        }
        replyHead = head;
        String type = head.headers().get(HttpHeaderNames.CONTENT_TYPE);
        boolean sse = head.status().code() == 200 && type != null
                && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
        if (sse && !fields.isNotification() && replyFilter == null) {
            relayStream(type);
        } else {
            collect();
        }
    }

    @Override
    public void content(Buffer chunk) {
        if (done) {
            return;
        }
        if (streaming) {
            relayChunk(chunk);
        } else {
            collectChunk(chunk);
        }
    }

    @Override
    public void end() {
        if (done) {
            return;
        }
        if (streaming) {
            endStream();
        } else {
            deliver(collected.buffer());
        }
    }

    @Override
    public void failed(Throwable cause) {
        onUpstreamFailure(cause);
    }

    private void collect() {
        long limit = limits.maxResponseBytes();
        String declared = replyHead.headers().get(HttpHeaderNames.CONTENT_LENGTH);
        if (declared != null && ContentLength.of(declared) > limit) {
            tooLarge();
            return;
        }
        collected = new BodyCollector(declared);
    }

    private void collectChunk(Buffer chunk) {
        if (collected.length() + chunk.length() > limits.maxResponseBytes()) {
            tooLarge();
            return;
        }
        collected.add(chunk);
    }

    private void deliver(Buffer collected) {
        releasePlaces();
        int status = replyHead.status().code();
        if (fields.isNotification()) {
            response.setStatusCode(204).end();
            finish(status < 300 ? GatewayMetrics.Outcome.OK : GatewayMetrics.Outcome.AGENT_HTTP_ERROR);
            return;
        }
        ReplyShape shape = ReplyShape.of(collected);
        if (status >= 200 && status < 300 || shape != ReplyShape.NOT_JSON_RPC) {
            // the agent answered: relay its bytes and status unchanged (an application error included)
            response.setStatusCode(status);
            // a filtered reply (a push config's) is the gateway's JSON, whatever the agent sent, a stream included
            String type = replyFilter != null ? null : replyHead.headers().get(HttpHeaderNames.CONTENT_TYPE);
            response.putHeader("Content-Type", type != null ? type : "application/json");
            copyReplyHeaders();
            response.end(replyFilter == null ? collected : replyFilter.apply(collected));
            finish(shape == ReplyShape.ERROR ? GatewayMetrics.Outcome.APPLICATION_ERROR : GatewayMetrics.Outcome.OK);
            return;
        }
        fail(AgentFailures.httpStatus(fields.id(), agent.id(), status), AgentFailures.outcome(status));
    }

    private void copyReplyHeaders() {
        HttpHeaders headers = replyHead.headers();
        for (AsciiString name : RELAYED_REPLY_HEADERS) {
            // contains() first: getAll() builds a list even for a header that is not there, which is the usual case
            if (headers.contains(name)) {
                response.putHeader(name, List.<CharSequence>copyOf(headers.getAll(name)));
            }
        }
    }

    private void tooLarge() {
        fail(AgentFailures.tooLarge(fields.id(), agent.id(), limits.maxResponseBytes()), GatewayMetrics.Outcome.TOO_LARGE);
    }

    /** Relays SSE frame by frame; headers go with the first frame or keepalive (an early failure is plain JSON-RPC). */
    private void relayStream(String type) {
        cancelTimeout();
        streaming = true;
        streamType = type;
        openStreams = metrics.openStreams(agent.id());
        openStreams.incrementAndGet();
        lastAgentEventNanos = System.nanoTime();
        lastWriteNanos = lastAgentEventNanos;
        splitter = new SseFrameSplitter(limits.maxResponseBytes());
        long keepaliveNanos = settings.keepaliveInterval().toNanos();
        long idleNanos = limits.streamIdleTimeoutSeconds() * 1_000_000_000L;
        long tick = Math.max(50, Math.min(settings.keepaliveInterval().toMillis(), idleNanos / 1_000_000L) / 3);
        streamTimer = loop.scheduleAtFixedRate(() -> {
            if (done) {
                return;
            }
            long now = System.nanoTime();
            if (now - lastAgentEventNanos >= idleNanos) {
                idle();
            } else if (now - lastWriteNanos >= keepaliveNanos && !callerGone) {
                sendStreamHeaders();
                response.write(": keepalive\n\n");
                lastWriteNanos = now;
            }
        }, tick, tick, TimeUnit.MILLISECONDS);
    }

    private void relayChunk(Buffer chunk) {
        List<Buffer> frames;
        try {
            frames = splitter.feed(chunk);
        } catch (IllegalStateException tooBig) {
            tooLarge();
            return;
        }
        if (frames.isEmpty()) {
            return;
        }
        lastAgentEventNanos = System.nanoTime();
        sendStreamHeaders();
        for (Buffer frame : frames) {
            Buffer out = tap == null ? frame : tap.frame(frame);
            if (!callerGone) {
                response.write(out);
            }
        }
        lastWriteNanos = lastAgentEventNanos;
        if (!callerGone && response.writeQueueFull()) {
            // a slow caller: stop reading the agent until the caller has taken what was written
            AgentExchange reading = upstream;
            reading.pause();
            response.drainHandler(v -> reading.resume());
        }
    }

    private void endStream() {
        if (!streamHeadersSent) {
            fail(AgentFailures.emptyStream(fields.id(), agent.id()), GatewayMetrics.Outcome.UNREACHABLE);
            return;
        }
        Buffer rest = splitter.remainder();
        releasePlaces();
        if (callerGone) {
            finish(GatewayMetrics.Outcome.CALLER_DISCONNECTED);
            return;
        }
        if (rest.length() > 0) {
            response.write(rest);
        }
        response.end();
        finish(GatewayMetrics.Outcome.OK);
    }

    private void sendStreamHeaders() {
        if (streamHeadersSent) {
            return;
        }
        streamHeadersSent = true;
        metrics.record(agent.id(), fields.method(), GatewayMetrics.Outcome.OK, System.nanoTime() - started);
        response.setStatusCode(200)
                .setChunked(true)
                .putHeader("Content-Type", streamType)
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        copyReplyHeaders();
        for (Buffer frame : missed) {
            response.write(frame);
        }
        missed = List.of();
    }

    /** The caller hung up: a task's buffered stream is held for a resume (holdAfterDrop, G13), anything else ends (G8). */
    private void callerGone() {
        long holdMs = settings.streamBuffer().holdAfterDrop().toMillis();
        if (!streaming || tap == null || !tap.buffering() || holdMs <= 0) {
            finish(GatewayMetrics.Outcome.CALLER_DISCONNECTED);
            return;
        }
        callerGone = true;
        upstream.resume(); // a slow caller may have paused it; the buffer takes what comes now
        hold(holdMs);
    }

    private void hold(long holdMs) {
        loop.schedule(() -> {
            if (done) {
                return;
            }
            if (tap.hasFollowers()) {
                hold(holdMs);
            } else {
                resetUpstream();
                finish(GatewayMetrics.Outcome.CALLER_DISCONNECTED);
            }
        }, holdMs, TimeUnit.MILLISECONDS);
    }

    private void idle() {
        if (!streamHeadersSent) {
            fail(AgentFailures.idle(fields.id(), agent.id(), limits.streamIdleTimeoutSeconds()),
                    GatewayMetrics.Outcome.IDLE_TIMEOUT);
            return;
        }
        resetUpstream();
        releasePlaces();
        if (!callerGone) {
            response.end();
        }
        finish(GatewayMetrics.Outcome.IDLE_TIMEOUT);
    }

    private void onUpstreamFailure(Throwable cause) {
        if (done) {
            return;
        }
        if (cause instanceof Egress.Refused refused) {
            try (LogContext ids = LogContext.agent(agent.id()).and(LogContext.CALLER, callerId)) {
                LOG.info("call to {} refused: its address is not allowed ({})", agent.id(), refused.getMessage());
            }
            fail(AgentFailures.egressRefused(fields.id(), agent.id()), GatewayMetrics.Outcome.EGRESS_REFUSED);
            return;
        }
        if (streamHeadersSent) {
            // mid-stream: the caller already has events; all we can do is end the stream
            releasePlaces();
            if (!callerGone) {
                response.end();
            }
            finish(GatewayMetrics.Outcome.UNREACHABLE);
            return;
        }
        // the cause names internal hosts and ports: it goes to the log, the caller gets the agent id
        // INFO: an agent that cannot be reached is what an operator looks for, by its id
        try (LogContext ids = LogContext.agent(agent.id()).and(LogContext.CALLER, callerId)) {
            LOG.info("call to {} failed: {}", agent.id(), cause.toString());
        }
        boolean timeout = AgentFailures.isTimeout(cause);
        fail(AgentFailures.unreachable(fields.id(), agent.id(), cause),
                timeout ? GatewayMetrics.Outcome.TIMEOUT : GatewayMetrics.Outcome.UNREACHABLE);
    }

    /** Answers the caller with a gateway error (when it can still be answered) and finishes. */
    private void fail(GatewayException error, GatewayMetrics.Outcome outcome) {
        if (done) {
            return;
        }
        resetUpstream();
        releasePlaces();
        if (streamHeadersSent || callerGone) {
            if (!callerGone) {
                response.end();
            }
        } else if (fields.isNotification()) {
            if (!response.ended() && !response.closed()) {
                response.setStatusCode(204).end();
            }
        } else {
            GatewayReplies.error(response, error, 200, false);
        }
        finish(outcome);
    }

    private void finish(GatewayMetrics.Outcome outcome) {
        if (done) {
            return;
        }
        done = true;
        cancelTimeout();
        if (streamTimer != null) {
            streamTimer.cancel(false);
            streamTimer = null;
        }
        if (outcome == GatewayMetrics.Outcome.CALLER_DISCONNECTED) {
            resetUpstream();
        }
        if (streaming) {
            openStreams.decrementAndGet();
        }
        if (tap != null) {
            tap.end();
        }
        releasePlaces();
        if (!streamHeadersSent) {
            metrics.record(agent.id(), fields.method(), outcome, System.nanoTime() - started);
        } else if (outcome != GatewayMetrics.Outcome.OK) {
            // a relayed stream was counted (OK) with its first event; how it ended otherwise is counted too
            metrics.recordEnd(agent.id(), fields.method(), outcome);
        }
        span.end(agent.id(), fields.method(), outcome, response.getStatusCode());
    }

    /** Idempotent; runs before the reply's last byte too: a caller's next call may come the moment it reads it. */
    private void releasePlaces() {
        permit.release();
        bytes.release();
    }

    private void cancelTimeout() {
        if (timeoutTimer != null) {
            timeoutTimer.cancel(false);
            timeoutTimer = null;
        }
    }

    private void resetUpstream() {
        if (upstream != null) {
            // the exchange reports nothing after a reset: a timeout or an idle stream is answered as itself,
            // never as "agent unreachable"
            upstream.reset();
        }
    }
}
