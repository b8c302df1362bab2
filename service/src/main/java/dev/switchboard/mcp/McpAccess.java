package dev.switchboard.mcp;

import dev.switchboard.auth.Caller;
import dev.switchboard.registry.RegisteredAgent;

/**
 * The one place the MCP door asks which agents a caller may see and call: {@code list_agents}, the per-skill tools a
 * caller is shown, and every call ({@code send_message}, {@code get_task}, {@code cancel_task}, per-skill tools) go
 * through it: the gateway's AccessPolicy grants when there are any, every agent to every authenticated caller when
 * there are none ({@link #ALL}).
 */
public interface McpAccess {

    /** Every authenticated caller may list and call every agent. */
    McpAccess ALL = (caller, agent) -> true;

    /** Whether {@code caller} may see and call {@code agent}; an agent it may not is, to it, an unknown agent. */
    boolean mayUse(Caller caller, RegisteredAgent agent);

    /**
     * Why {@code caller} may not call the A2A {@code method} (0.3 name) on an agent it may use, or null when it may: a
     * grant can name some methods of an agent and not others.
     */
    default String refusal(Caller caller, RegisteredAgent agent, String method) {
        return null;
    }
}
