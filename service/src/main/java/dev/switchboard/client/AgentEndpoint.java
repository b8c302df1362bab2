package dev.switchboard.client;

import dev.switchboard.protocol.ProtocolVersion;
import java.util.Map;

/**
 * Where and how to call one agent: the endpoint URL every call goes to (never the card's interface
 * URLs), the wire version, and the headers of every request (the one identity header, the backend's
 * static headers, trace context). The client adds {@code A2A-Version: 1.0} for 1.0 agents itself.
 */
public record AgentEndpoint(String url, ProtocolVersion version, Map<String, String> headers,
        java.net.InetSocketAddress connectTo) {

    public AgentEndpoint {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    public AgentEndpoint(String url, ProtocolVersion version, Map<String, String> headers) {
        this(url, version, headers, null);
    }

    public AgentEndpoint withVersion(ProtocolVersion v) {
        return new AgentEndpoint(url, v, headers, connectTo);
    }

    /**
     * The endpoint connected to at exactly this address (the URL's host still goes in {@code Host} and SNI): how a
     * caller that checked the address against an egress policy makes sure the call goes where it checked.
     */
    public AgentEndpoint connectingTo(java.net.InetSocketAddress address) {
        return new AgentEndpoint(url, version, headers, address);
    }

    /** The endpoint with one more header on every request (e.g. the extensions a dialect asks for). */
    public AgentEndpoint withHeader(String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(headers);
        more.put(name, value);
        return new AgentEndpoint(url, version, more, connectTo);
    }

    /** The card URL: the endpoint with any trailing slash trimmed, plus the well-known path. */
    public String cardUrl() {
        return url.replaceAll("/+$", "") + "/.well-known/agent-card.json";
    }

    @Override
    public String toString() {
        return "AgentEndpoint[" + url + ", " + version + ", headers=" + headers.keySet() + "]";
    }
}
