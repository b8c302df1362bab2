package dev.switchboard.protocol.model;

/**
 * One endpoint of an agent: 1.0 {@code supportedInterfaces[]} entry, or 0.3's top-level url /
 * additionalInterfaces entry. {@code protocolVersion} is normalised to Major.Minor ("0.3", "1.0").
 */
public record AgentInterface(String url, String protocolBinding, String protocolVersion, String tenant) {

    public static final String JSONRPC = "JSONRPC";

    public boolean isJsonRpc() {
        return JSONRPC.equalsIgnoreCase(protocolBinding);
    }

}
