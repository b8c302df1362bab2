package dev.switchboard.bridge;

import dev.switchboard.protocol.CallFailure;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One call the bridge makes to an agent for a turn, as a trace sees it: the W3C headers the request carries and, when
 * tracing is on, the CLIENT span whose context they are. Off, the headers are the turn's trace with a fresh span id
 * ({@link TraceContext#headers}) and there is no span. {@link #end} may come from any thread, more than once (a stream
 * can fail while it is being closed): only the first counts.
 */
final class CallSpan {

    private static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    private static final AttributeKey<Long> RPC_ERROR_CODE = AttributeKey.longKey("rpc.jsonrpc.error_code");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<Boolean> CLOSED = AttributeKey.booleanKey("switchboard.call.closed_by_bridge");

    private final Map<String, String> headers;
    private final Span span;
    private final AtomicBoolean ended = new AtomicBoolean();

    CallSpan(Map<String, String> headers, Span span) {
        this.headers = Map.copyOf(headers);
        this.span = span;
    }

    /** {@code traceparent} (and {@code tracestate} when there is one) for the request. */
    Map<String, String> headers() {
        return headers;
    }

    /** The call came back: {@code failure} null when it succeeded (a stream: it ended). */
    void end(CallFailure failure) {
        if (span == null || !ended.compareAndSet(false, true)) {
            return;
        }
        if (failure != null) {
            span.setStatus(StatusCode.ERROR, describe(failure));
            span.setAttribute(ERROR_TYPE, type(failure));
            if (failure instanceof CallFailure.HttpStatus h) {
                span.setAttribute(HTTP_STATUS, (long) h.status());
            } else if (failure instanceof CallFailure.RpcError r) {
                span.setAttribute(HTTP_STATUS, (long) r.status());
                span.setAttribute(RPC_ERROR_CODE, (long) r.code());
            }
        }
        span.end();
    }

    /** The bridge closed the stream itself (the turn moved on): not a failure of the call. */
    void closed() {
        if (span != null && !ended.get()) {
            span.setAttribute(CLOSED, true);
        }
        end(null);
    }

    private static String type(CallFailure failure) {
        if (failure instanceof CallFailure.HttpStatus h) {
            return "http_" + h.status();
        } else if (failure instanceof CallFailure.RpcError r) {
            return "jsonrpc_" + r.code();
        } else if (failure instanceof CallFailure.Transport t) {
            return "transport_" + t.kind().name().toLowerCase(java.util.Locale.ROOT);
        }
        return "malformed_reply";
    }

    /** What failed, without the agent's own words (an error message may hold anything). */
    private static String describe(CallFailure failure) {
        if (failure instanceof CallFailure.HttpStatus h) {
            return "HTTP " + h.status();
        } else if (failure instanceof CallFailure.RpcError r) {
            return "JSON-RPC error " + r.code();
        } else if (failure instanceof CallFailure.Transport t) {
            return "transport: " + t.kind().name().toLowerCase(java.util.Locale.ROOT);
        }
        return "the reply is not A2A";
    }
}
