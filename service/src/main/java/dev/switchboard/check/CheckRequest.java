package dev.switchboard.check;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.protocol.ProtocolVersion;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What to check: the AgentBackend's url as written, its dialect, kagent-v1's agent reference, the headers of every call
 * (the token becomes {@code Authorization: Bearer}, as a Binding's tokenSecretRef does), and the version when the card
 * should not decide it.
 *
 * @param version null: the card decides, as it does for the bridge
 */
public record CheckRequest(String url, Dialect dialect, String agentNamespace, String agentName,
        Map<String, String> headers, String token, ProtocolVersion version, CheckLimits limits) {

    public CheckRequest {
        Objects.requireNonNull(url, "url");
        URI parsed;
        try {
            parsed = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("URL is not a URL: " + url);
        }
        if (!"http".equalsIgnoreCase(parsed.getScheme()) && !"https".equalsIgnoreCase(parsed.getScheme())
                || parsed.getHost() == null) {
            throw new IllegalArgumentException("URL must be an http:// or https:// URL with a host: " + url);
        }
        dialect = dialect == null ? Dialect.A2A : dialect;
        if (dialect == Dialect.KAGENT_V1 && (blank(agentNamespace) || blank(agentName))) {
            throw new IllegalArgumentException("--dialect kagent-v1 needs --agent-ref NAMESPACE/NAME "
                    + "(the agent is called at URL/agents/NAMESPACE/NAME)");
        }
        if (dialect == Dialect.A2A && (!blank(agentNamespace) || !blank(agentName))) {
            throw new IllegalArgumentException("--agent-ref applies to --dialect kagent-v1 only");
        }
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        Objects.requireNonNull(limits, "limits");
    }

    public static CheckRequest of(String url, CheckLimits limits) {
        return new CheckRequest(url, Dialect.A2A, null, null, Map.of(), null, null, limits);
    }

    /** The endpoint every call goes to (kagent-v1: url + /agents/ns/name), by the bridge's own rule. */
    public String endpointUrl() {
        return Contract.endpointUrl(dialect, url, agentNamespace, agentName);
    }

    /**
     * The headers of every call: the given ones, with exactly one identity header when a token is given (as the bridge
     * sends, a static Authorization or X-User-Id cannot add a second one).
     */
    public Map<String, String> callHeaders() {
        Map<String, String> all = new LinkedHashMap<>(headers);
        if (token != null) {
            all.keySet().removeIf(k -> k.equalsIgnoreCase("Authorization") || k.equalsIgnoreCase("X-User-Id"));
            all.put("Authorization", "Bearer " + token);
        }
        return all;
    }

    public boolean kagent() {
        return dialect == Dialect.KAGENT_V1;
    }

    /** The dialect {@code --dialect} spells; says which spellings there are when it spells none. */
    public static Dialect dialect(String given) {
        try {
            return given == null ? Dialect.A2A : Dialect.fromConfig(given);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--dialect must be " + String.join(" or ", Dialect.configNames())
                    + ", not " + given);
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    @Override
    public String toString() {
        // headers hold tokens: only their names
        return "CheckRequest[" + url + ", " + dialect + ", headers=" + headers.keySet() + ", token=" + (token != null) + "]";
    }
}
