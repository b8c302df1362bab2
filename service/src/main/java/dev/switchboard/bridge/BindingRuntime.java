package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A Binding as the bridge runs it: which backend its channels talk to (looked up in the shared
 * registry at each call, so a changed URL takes effect), with which identity, in which dialect.
 *
 * <p>What Agent Kourier sends: every request carries exactly one identity header —
 * {@code Authorization: Bearer} from the binding's token or {@code X-User-Id} from {@code userId} —
 * plus the backend's static headers and the W3C trace context of the turn ({@link TraceContext}).
 */
public final class BindingRuntime {

    private final Binding binding;
    private final String token;
    private final AgentRegistry registry;
    /** the card, fetched (or being fetched) for the fingerprint it was fetched with; a failed fetch is dropped */
    private CachedCard card;

    private record CachedCard(String fingerprint, Future<AgentCard> card) {}

    /** @param token the bearer token of the binding's identity; null: it is known by {@code userId} */
    public BindingRuntime(Binding binding, String token, AgentRegistry registry) {
        this.binding = binding;
        this.token = token;
        this.registry = registry;
    }

    public Binding spec() {
        return binding;
    }

    /** The identity's bearer token (null: known by userId); package-private: only {@link LiveBindings} compares it. */
    String token() {
        return token;
    }

    public Dialect dialect() {
        return binding.dialect();
    }

    public Optional<RegisteredAgent> backend() {
        return registry.find(binding.backendRef());
    }

    /** Discovery: on a2a the endpoint is the url as written; on kagent-v1, url + /agents/<namespace>/<name>. */
    public Optional<String> endpointUrl() {
        return backend().map(b -> Contract.endpointUrl(binding.dialect(), b.url(), binding.agentRefNamespace(),
                binding.agentRefName()));
    }

    /** The endpoint to call, in the given version (null before the card says), in a trace of its own. */
    public Optional<AgentEndpoint> endpoint(ProtocolVersion version) {
        return endpoint(version, TraceContext.headers(null));
    }

    /**
     * The endpoint to call for one call of a turn: {@code traceHeaders} are the call's W3C trace context
     * ({@link CallSpan#headers()}), which replace any the backend's static headers name.
     */
    public Optional<AgentEndpoint> endpoint(ProtocolVersion version, Map<String, String> traceHeaders) {
        return backend().flatMap(b -> endpointUrl().map(url -> {
            Map<String, String> headers = new LinkedHashMap<>(b.headers());
            // exactly one identity header: a static Authorization or X-User-Id cannot add a second one
            headers.keySet().removeIf(k -> k.equalsIgnoreCase("Authorization") || k.equalsIgnoreCase("X-User-Id"));
            if (token != null) {
                headers.put("Authorization", "Bearer " + token);
            } else {
                headers.put("X-User-Id", binding.userId());
            }
            headers.keySet().removeIf(k -> k.equalsIgnoreCase("traceparent") || k.equalsIgnoreCase("tracestate"));
            headers.putAll(traceHeaders);
            return new AgentEndpoint(url, version == null ? ProtocolVersion.V1_0 : version, headers);
        }));
    }

    /**
     * Discovery: the card is fetched on first use and again when the URL or the credentials change, per Binding:
     * every thread of the Binding shares one fetch (one in flight is shared too). A failed fetch is not kept, so
     * the next one asks the agent again.
     */
    public synchronized Future<AgentCard> card(Supplier<Future<AgentCard>> fetch) {
        String fp = fingerprint();
        CachedCard cached = card;
        if (cached != null && cached.fingerprint().equals(fp) && !cached.card().failed()) {
            return cached.card();
        }
        CachedCard fetched = new CachedCard(fp, fetch.get());
        card = fetched;
        fetched.card().onFailure(e -> forget(fetched));
        return fetched.card();
    }

    private synchronized void forget(CachedCard failed) {
        if (card == failed) {
            card = null;
        }
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

}
