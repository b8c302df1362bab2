package dev.switchboard.mcp;

import java.time.Duration;

/**
 * {@code Server.spec.mcp}: the MCP door at {@code /mcp}.
 *
 * @param enabled whether {@code /mcp} is served; on by default: it asks the same credentials as the gateway and
 *     reaches only what the gateway does, so it exposes nothing the gateway does not
 * @param toolsPerSkill besides the four tools, one tool per agent skill ({@code <agent>.<skill>})
 * @param maxSessions MCP sessions held at once; a new {@code initialize} over it is refused (503)
 * @param sessionIdleTimeout a session with no request, no call in flight and no open stream this long is ended
 * @param maxTextBytes the largest {@code text} a send takes (UTF-8 bytes)
 */
public record McpSettings(boolean enabled, boolean toolsPerSkill, int maxSessions, Duration sessionIdleTimeout,
        int maxTextBytes) {

    public static final McpSettings DEFAULTS = new McpSettings(true, false, 1000, Duration.ofMinutes(30), 256 * 1024);

    /** The largest body {@code POST /mcp} reads: a send's text with room for its JSON-RPC envelope and escapes. */
    public long maxBodyBytes() {
        return Math.max(64 * 1024, 2L * maxTextBytes + 16 * 1024);
    }
}
