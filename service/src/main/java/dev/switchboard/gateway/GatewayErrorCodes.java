package dev.switchboard.gateway;

/**
 * The gateway's own JSON-RPC codes, KubeMQ's: they reuse numbers that A2A gives other meanings
 * (-32001 TaskNotFound, -32002 TaskNotCancelable), which is why every gateway error carries
 * {@code error.data.source = "gateway"}.
 */
final class GatewayErrorCodes {

    static final int AGENT_TIMEOUT = -32001;
    static final int AGENT_NOT_FOUND = -32002;

    private GatewayErrorCodes() {}
}
