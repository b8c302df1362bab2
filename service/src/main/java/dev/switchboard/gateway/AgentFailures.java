package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import io.netty.channel.ConnectTimeoutException;
import java.net.ConnectException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/** G7: what a caller is told when the agent could not be reached, or answered an HTTP error without a JSON-RPC body. */
final class AgentFailures {

    private AgentFailures() {}

    static GatewayException httpStatus(JsonNode id, String agentId, int status) {
        if (status == 502 || status == 503) {
            return new GatewayException(id, JsonRpcError.INTERNAL_ERROR,
                    "agent unavailable: " + agentId + " answered HTTP " + status, GatewayException.Kind.TRANSPORT_RETRYABLE);
        }
        if (status == 504) {
            return new GatewayException(id, GatewayErrorCodes.AGENT_TIMEOUT,
                    "agent timeout: " + agentId + " answered HTTP 504", GatewayException.Kind.TRANSPORT_RETRYABLE);
        }
        return new GatewayException(id, JsonRpcError.INTERNAL_ERROR,
                "agent error: " + agentId + " answered HTTP " + status + " without a JSON-RPC body",
                GatewayException.Kind.AGENT_HTTP_ERROR);
    }

    static GatewayMetrics.Outcome outcome(int status) {
        return switch (status) {
            case 502, 503 -> GatewayMetrics.Outcome.UNREACHABLE;
            case 504 -> GatewayMetrics.Outcome.TIMEOUT;
            default -> GatewayMetrics.Outcome.AGENT_HTTP_ERROR;
        };
    }

    static boolean isTimeout(Throwable cause) {
        return cause instanceof TimeoutException
                || (cause.getMessage() != null && cause.getMessage().toLowerCase(Locale.ROOT).contains("timeout"));
    }

    /** The agent could not be reached (the cause itself, naming internal hosts and ports, goes only to the log). */
    static GatewayException unreachable(JsonNode id, String agentId, Throwable cause) {
        if (isTimeout(cause)) {
            return timeout(id, agentId);
        }
        return new GatewayException(id, JsonRpcError.INTERNAL_ERROR, "agent unreachable: " + agentId
                + unreachableBecause(cause), GatewayException.Kind.TRANSPORT_RETRYABLE);
    }

    /** A connect that timed out is a {@link ConnectException} too, but nothing refused it. */
    static String unreachableBecause(Throwable cause) {
        if (cause instanceof ConnectTimeoutException) {
            return ": connection timed out";
        }
        return cause instanceof ConnectException ? ": connection refused" : "";
    }

    static GatewayException timeout(JsonNode id, String agentId) {
        return new GatewayException(id, GatewayErrorCodes.AGENT_TIMEOUT, "agent timeout: " + agentId,
                GatewayException.Kind.TRANSPORT_RETRYABLE);
    }

    static GatewayException idle(JsonNode id, String agentId, long idleSeconds) {
        return new GatewayException(id, GatewayErrorCodes.AGENT_TIMEOUT,
                "agent timeout: " + agentId + " sent no event for " + idleSeconds + " s", GatewayException.Kind.TRANSPORT_RETRYABLE);
    }

    static GatewayException tooLarge(JsonNode id, String agentId, long maxResponseBytes) {
        return new GatewayException(id, JsonRpcError.INTERNAL_ERROR,
                "response too large: " + agentId + " sent more than " + maxResponseBytes + " bytes",
                GatewayException.Kind.TRANSPORT_FINAL);
    }

    /** The agent opened a stream and closed it without one event. */
    static GatewayException emptyStream(JsonNode id, String agentId) {
        return new GatewayException(id, JsonRpcError.INTERNAL_ERROR,
                "agent closed the stream without sending an event: " + agentId, GatewayException.Kind.TRANSPORT_RETRYABLE);
    }

    static GatewayException egressRefused(JsonNode id, String agentId) {
        return new GatewayException(id, JsonRpcError.INTERNAL_ERROR,
                "agent address not allowed: " + agentId + " points at an address the gateway may not call",
                GatewayException.Kind.TRANSPORT_FINAL);
    }
}
