package dev.switchboard.mcp;

import dev.switchboard.auth.Caller;
import dev.switchboard.registry.RegisteredAgent;

/**
 * The one place the MCP door asks which agents a caller may see and call: {@code list_agents}, the per-skill tools a
 * caller is shown, and every call ({@code send_message}, {@code get_task}, {@code cancel_task}, per-skill tools) go
 * through it. Today every authenticated caller may use every agent ({@link #ALL}), as on the gateway; grants per
 * caller plug in here.
 */
public interface McpAccess {

    /** Every authenticated caller may list and call every agent. */
    McpAccess ALL = (caller, agent) -> true;

    /** Whether {@code caller} may see and call {@code agent}; an agent it may not is, to it, an unknown agent. */
    boolean mayUse(Caller caller, RegisteredAgent agent);
}
