package dev.switchboard.gateway;

/**
 * The gateway's own JSON-RPC codes, KubeMQ's: they reuse numbers that A2A gives other meanings
 * (-32001 TaskNotFound, -32002 TaskNotCancelable), which is why every gateway error carries
 * {@code error.data.source = "gateway"}.
 */
final class GatewayErrorCodes {

    static final int AGENT_TIMEOUT = -32001;
    static final int AGENT_NOT_FOUND = -32002;
    /** No AccessPolicy grants the caller this agent or method (HTTP 403); A2A gives the number no meaning. */
    static final int FORBIDDEN = -31403;
    /** The caller is over one of its limits (HTTP 429, Retry-After). */
    static final int RATE_LIMITED = -31429;
    /** A resume ({@code Last-Event-ID}) from an event no longer buffered (G13): like HTTP 410, the events are gone. */
    static final int STREAM_GAP = -31410;
    /** A {@code Last-Event-ID} that is not one this gateway gave ({@code <taskId>:<n>}), or names another task. */
    static final int BAD_EVENT_ID = -32602;

    private GatewayErrorCodes() {}
}
