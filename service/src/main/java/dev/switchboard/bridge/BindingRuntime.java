package dev.switchboard.bridge;

import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.BindingSpec;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Binding as the bridge runs it: which backend its channels talk to (looked up in the shared
 * registry at each call, so a changed URL takes effect), with which identity, in which dialect.
 *
 * <p>What Agent Kourier sends: every request carries exactly one identity header —
 * {@code Authorization: Bearer} from {@code tokenSecretRef} or {@code X-User-Id} from {@code userId} —
 * plus the backend's static headers and a W3C {@code traceparent}.
 */
public final class BindingRuntime {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final BindingSpec binding;
    private final String dialect;
    private final String agentRefNamespace;
    private final String agentRefName;
    private final String token;
    private final AgentRegistry registry;

    public BindingRuntime(BindingSpec binding, AgentBackendSpec backend, String token, AgentRegistry registry) {
        this.binding = binding;
        this.dialect = backend == null ? AgentBackendSpec.DIALECT_A2A : backend.dialect();
        this.agentRefNamespace = backend == null ? "default" : backend.agentRefNamespace();
        this.agentRefName = backend == null ? binding.backendRef() : backend.agentRefName();
        this.token = token;
        this.registry = registry;
    }

    public BindingSpec spec() {
        return binding;
    }

    public String dialect() {
        return dialect;
    }

    public Optional<RegisteredAgent> backend() {
        return registry.find(binding.backendRef());
    }

    /** Discovery: on a2a the endpoint is the url as written; on kagent-v1, url + /agents/<namespace>/<name>. */
    public Optional<String> endpointUrl() {
        return backend().map(b -> AgentBackendSpec.DIALECT_KAGENT.equals(dialect)
                ? b.url().replaceAll("/+$", "") + "/agents/" + agentRefNamespace + "/" + agentRefName
                : b.url());
    }

    /** The endpoint to call, in the given version (null before the card says). */
    public Optional<AgentEndpoint> endpoint(ProtocolVersion version) {
        return backend().flatMap(b -> endpointUrl().map(url -> {
            Map<String, String> headers = new LinkedHashMap<>(b.headers());
            // exactly one identity header: a static Authorization or X-User-Id cannot add a second one
            headers.keySet().removeIf(k -> k.equalsIgnoreCase("Authorization") || k.equalsIgnoreCase("X-User-Id"));
            if (token != null) {
                headers.put("Authorization", "Bearer " + token);
            } else {
                headers.put("X-User-Id", binding.userId());
            }
            headers.put("traceparent", traceparent());
            return new AgentEndpoint(url, version == null ? ProtocolVersion.V1_0 : version, headers);
        }));
    }

    /** Changes when the URL or the credentials change: the card is then fetched again. Holds no secret. */
    public String fingerprint() {
        String url = endpointUrl().orElse("");
        Map<String, String> statics = new TreeMap<>(backend().map(RegisteredAgent::headers).orElse(Map.of()));
        String identity = token != null ? "token:" + token : "user:" + binding.userId();
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update((url + "\n" + identity + "\n" + statics).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String traceparent() {
        byte[] trace = new byte[16];
        byte[] span = new byte[8];
        RANDOM.nextBytes(trace);
        RANDOM.nextBytes(span);
        return "00-" + HexFormat.of().formatHex(trace) + "-" + HexFormat.of().formatHex(span) + "-01";
    }
}
