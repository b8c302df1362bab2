package dev.switchboard.client;

import dev.switchboard.protocol.ProtocolVersion;
import java.util.Map;

/**
 * Where and how to call one agent: the endpoint URL every call goes to (never the card's interface
 * URLs), the wire version, and the headers of every request (the one identity header, the backend's
 * static headers, trace context). The client adds {@code A2A-Version: 1.0} for 1.0 agents itself.
 */
public record AgentEndpoint(String url, ProtocolVersion version, Map<String, String> headers) {

    public AgentEndpoint {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    public AgentEndpoint withVersion(ProtocolVersion v) {
        return new AgentEndpoint(url, v, headers);
    }

    /** The endpoint with one more header on every request (e.g. the extensions a dialect asks for). */
    public AgentEndpoint withHeader(String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(headers);
        more.put(name, value);
        return new AgentEndpoint(url, version, more);
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
