package dev.switchboard.bridge.engine;

import java.time.Duration;

/**
 * Why a call to the agent failed, in the terms the seed's Errors table decides on. The engine's own
 * type: the driver maps its HTTP client's failures onto it, so the rules depend on no client code.
 * {@code retryAfter} is the agent's {@code Retry-After}, when it sent one (null otherwise).
 */
public sealed interface CallFailure {

    Duration retryAfter();

    /** An HTTP status without a usable JSON-RPC body (3xx included: redirects are never followed). */
    record HttpStatus(int status, Duration retryAfter) implements CallFailure {}

    /**
     * A JSON-RPC error object, on any HTTP status. The message is for logs only, never shown in a thread.
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
