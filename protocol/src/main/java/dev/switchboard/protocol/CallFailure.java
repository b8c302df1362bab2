package dev.switchboard.protocol;

import java.time.Duration;

/**
 * Why an outbound A2A call failed, in the terms the agent contract's Errors table decides on.
 * {@code retryAfter} is the agent's {@code Retry-After}, when it sent one (null otherwise).
 *
 * <p>One type for the HTTP client that types its failures ({@code client}) and the pure engine that decides on them
 * ({@code bridge.engine}): here, below both, because the engine may use only {@code protocol} and the client may not
 * use the bridge. A value, no I/O.
 */
public sealed interface CallFailure {

    Duration retryAfter();

    /** An HTTP status without a usable JSON-RPC body (3xx included: redirects are never followed). */
    record HttpStatus(int status, Duration retryAfter) implements CallFailure {}

    /**
     * A JSON-RPC error object, on any HTTP status. The message is kept for logs only, never shown in a thread.
     * {@code status} is the HTTP status it came with (200 for an error inside a stream).
     */
    record RpcError(int code, String message, Duration retryAfter, int status) implements CallFailure {
        public RpcError(int code, String message, Duration retryAfter) {
            this(code, message, retryAfter, 200);
        }
    }

    /** The connection failed, dropped, or sent no response headers in time. */
    record Transport(TransportKind kind, String detail) implements CallFailure {
        @Override
        public Duration retryAfter() {
            return null;
        }
    }

    /** The agent answered something that is not A2A (not JSON, not JSON-RPC, a result that does not parse). */
    record Malformed(String detail) implements CallFailure {
        @Override
        public Duration retryAfter() {
            return null;
        }
    }

    /** How a transport failed. */
    enum TransportKind {
        /** refused, unresolvable, TLS failure: nothing was sent */
        CONNECT,
        /** no response headers within the limit (30 s): counts as a lost connection */
        HEADERS_TIMEOUT,
        /** the connection closed or reset mid-call */
        LOST
    }
}
