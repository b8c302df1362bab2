package dev.switchboard.app;

import dev.switchboard.auth.Caller;
import dev.switchboard.mcp.McpAccess;
import dev.switchboard.policy.AccessControl;
import dev.switchboard.policy.Grants;
import dev.switchboard.registry.RegisteredAgent;

/**
 * The MCP door asks the gateway's AccessPolicy grants: a caller lists and calls through {@code /mcp} exactly the agents
 * and methods it may call through {@code /a2a}. Each question reads the grants in force, so a reload applies at once.
 */
record McpGrants(AccessControl access) implements McpAccess {

    private static final String SEND = "message/send";
    private static final String STREAM = "message/stream";

    @Override
    public boolean mayUse(Caller caller, RegisteredAgent agent) {
        return access.grants().mayCall(caller, agent);
    }

    @Override
    public String refusal(Caller caller, RegisteredAgent agent, String method) {
        Grants grants = access.grants();
        Grants.Decision decision = grants.call(caller, agent, method);
        if (!decision.allowed() && method.equals(SEND) && grants.call(caller, agent, STREAM).allowed()) {
            return null; // send_message sends a message: either way of sending granted is enough
        }
        return decision.allowed() ? null : decision.refusal();
    }
}
