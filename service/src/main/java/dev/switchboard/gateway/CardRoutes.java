package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.codec.CardCodec;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.model.AgentCapabilities;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * G10: Switchboard's own card, and each agent's card rewritten so that every interface points at
 * the gateway ({@code …/a2a/{agentId}}): a stock A2A client given the gateway's card URL then talks
 * through the gateway unchanged. Agent cards are fetched with the agent's static headers and the
 * caller's {@code A2A-Version} (the agent picks the shape), cached briefly per agent and version;
 * an agent without a usable card gets one built from its registration.
 */
public final class CardRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long CACHE_MILLIS = 30_000;
    private static final int MAX_CARD_BYTES = 1024 * 1024;

    private final HttpClientAgent client;
    private final AgentRegistry registry;
    private final String version;
    private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(long expiresAt, ObjectNode card) {}

    public CardRoutes(HttpClientAgent client, AgentRegistry registry, String version) {
        this.client = client;
        this.registry = registry;
        this.version = version;
    }

    public void mount(Router router) {
        router.get("/.well-known/agent-card.json").handler(this::platformCard);
        router.get("/a2a/:agentId/.well-known/agent-card.json").handler(this::agentCard);
    }

    /** Forgets cached cards, e.g. after a registration changed. */
    public void invalidate() {
        cache.clear();
    }

    private void platformCard(RoutingContext ctx) {
        String base = baseUrl(ctx.request()) + "/a2a";
        List<RegisteredAgent> agents = registry.list(List.of(), Integer.MAX_VALUE);
        // an agent registered without skills has those of its own card (PRODUCT.md: "else taken from the agent's card")
        List<Future<List<AgentSkill>>> perAgent = agents.stream()
                .map(a -> a.skills().isEmpty() ? cardSkills(a) : Future.succeededFuture(a.skills()))
                .toList();
        Future.all(perAgent).onComplete(done -> {
            List<AgentSkill> skills = new ArrayList<>();
            for (int i = 0; i < agents.size(); i++) {
                RegisteredAgent a = agents.get(i);
                perAgent.get(i).result().forEach(s -> skills.add(new AgentSkill(
                        a.id() + "/" + s.id(), s.name(), s.description(), withTag(s.tags(), a.id()), s.examples(),
                        s.inputModes(), s.outputModes())));
            }
            platformCard(ctx, base, skills);
        });
    }

    /** The skills of the agent's own card (cached like the card itself); none when it has no readable card. */
    private Future<List<AgentSkill>> cardSkills(RegisteredAgent agent) {
        String key = agent.id() + "|";
        Cached hit = cache.get(key);
        Future<ObjectNode> card = hit != null && hit.expiresAt > System.currentTimeMillis()
                ? Future.succeededFuture(hit.card)
                : fetch(agent, null).onSuccess(c -> cache.put(key, new Cached(System.currentTimeMillis() + CACHE_MILLIS, c)));
        return card.map(c -> CardCodec.read(c).skills()).otherwise(List.of());
    }

    private void platformCard(RoutingContext ctx, String base, List<AgentSkill> skills) {
        AgentCard card = new AgentCard("switchboard", "Switchboard A2A gateway: every agent is at " + base + "/{agentId}",
                version,
                List.of(new AgentInterface(base, AgentInterface.JSONRPC, "1.0", null),
                        new AgentInterface(base, AgentInterface.JSONRPC, "0.3", null)),
                new AgentCapabilities(true, false, false, false, List.of()),
                List.of("text/plain"), List.of("text/plain"), skills, null, null, null);
        sendCard(ctx, write(card, ctx.request()));
    }

    private void agentCard(RoutingContext ctx) {
        String id = ctx.pathParam("agentId");
        RegisteredAgent agent = registry.find(id).orElse(null);
        if (agent == null) {
            ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json")
                    .end("{\"error\":\"agent not found: " + id.replaceAll("[^a-zA-Z0-9-]", "") + "\"}");
            return;
        }
        String requested = ctx.request().getHeader("A2A-Version");
        String key = id + "|" + (requested == null ? "" : requested.trim());
        String gatewayUrl = baseUrl(ctx.request()) + "/a2a/" + id;
        Cached hit = cache.get(key);
        if (hit != null && hit.expiresAt > System.currentTimeMillis()) {
            sendCard(ctx, rewrite(hit.card.deepCopy(), gatewayUrl));
            return;
        }
        fetch(agent, requested).onComplete(ar -> {
            ObjectNode card = ar.succeeded() ? ar.result() : null;
            if (card != null) {
                cache.put(key, new Cached(System.currentTimeMillis() + CACHE_MILLIS, card));
                sendCard(ctx, rewrite(card.deepCopy(), gatewayUrl));
            } else {
                sendCard(ctx, (ObjectNode) write(fromRegistration(agent, gatewayUrl), ctx.request()));
            }
        });
    }

    private Future<ObjectNode> fetch(RegisteredAgent agent, String a2aVersion) {
        String url = agent.url().replaceAll("/+$", "") + "/.well-known/agent-card.json";
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        agent.headers().forEach(headers::set);
        headers.set("Accept", "application/json");
        if (a2aVersion != null) {
            headers.set("A2A-Version", a2aVersion);
        }
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url).setHeaders(headers)
                .setFollowRedirects(false).setConnectTimeout(5_000).setIdleTimeout(10_000);
        return client.request(options)
                .compose(req -> req.send())
                .compose(resp -> resp.statusCode() == 200 ? bodyWithin(resp) : Future.failedFuture("HTTP " + resp.statusCode()))
                .map(body -> {
                    try {
                        JsonNode node = JSON.readTree(body.getBytes());
                        if (!node.isObject() || !node.hasNonNull("name")) {
                            throw new IllegalArgumentException("not an agent card");
                        }
                        CardCodec.read(node); // must be a card we can read
                        return (ObjectNode) node;
                    } catch (java.io.IOException e) {
                        throw new IllegalArgumentException("card is not JSON", e);
                    }
                });
    }

    private static Future<Buffer> bodyWithin(HttpClientResponse resp) {
        String declared = resp.getHeader("Content-Length");
        if (declared != null && declared.matches("\\d+") && Long.parseLong(declared) > MAX_CARD_BYTES) {
            return Future.failedFuture("card too large");
        }
        return resp.body().compose(b -> b.length() > MAX_CARD_BYTES ? Future.failedFuture("card too large")
                : Future.succeededFuture(b));
    }

    /**
     * Points every JSON-RPC interface at the gateway and drops the others (the gateway serves only
     * JSON-RPC). Signatures are removed: they covered the agent's URLs, not ours.
     */
    static ObjectNode rewrite(ObjectNode card, String gatewayUrl) {
        if (card.has("supportedInterfaces") && card.get("supportedInterfaces").isArray()) {
            ArrayNode kept = JSON.createArrayNode();
            for (JsonNode i : card.get("supportedInterfaces")) {
                if (i.isObject() && isJsonRpc(i.path("protocolBinding").asText("JSONRPC"))) {
                    ((ObjectNode) i).put("url", gatewayUrl);
                    kept.add(i);
                }
            }
            card.set("supportedInterfaces", kept);
        }
        if (card.has("url")) {
            card.put("url", gatewayUrl);
            card.put("preferredTransport", "JSONRPC");
        }
        if (card.has("additionalInterfaces") && card.get("additionalInterfaces").isArray()) {
            ArrayNode kept = JSON.createArrayNode();
            for (JsonNode i : card.get("additionalInterfaces")) {
                if (i.isObject() && isJsonRpc(i.path("transport").asText("JSONRPC"))) {
                    ((ObjectNode) i).put("url", gatewayUrl);
                    kept.add(i);
                }
            }
            card.set("additionalInterfaces", kept);
        }
        card.remove("signatures");
        return card;
    }

    private static boolean isJsonRpc(String binding) {
        return binding.equalsIgnoreCase("JSONRPC");
    }

    private AgentCard fromRegistration(RegisteredAgent a, String gatewayUrl) {
        List<AgentInterface> interfaces = new ArrayList<>();
        List<String> versions = a.protocolVersions().isEmpty() ? List.of("1.0") : a.protocolVersions();
        for (String v : versions) {
            interfaces.add(new AgentInterface(gatewayUrl, AgentInterface.JSONRPC, majorMinor(v), null));
        }
        return new AgentCard(a.name(), a.description() == null || a.description().isEmpty() ? a.name() : a.description(),
                a.version() == null || a.version().isEmpty() ? "unknown" : a.version(), interfaces,
                new AgentCapabilities(true, false, false, false, List.of()),
                a.defaultInputModes(), a.defaultOutputModes(), a.skills(), null, null, null);
    }

    private static String majorMinor(String v) {
        String[] p = v.split("\\.");
        return p.length >= 2 ? p[0] + "." + p[1] : v;
    }

    /** 1.0 shape when the caller asks for 1.0, else the hybrid that 0.3 and 1.0 readers both accept. */
    private static JsonNode write(AgentCard card, HttpServerRequest request) {
        String v = request.getHeader("A2A-Version");
        if (v != null && v.trim().startsWith("1.")) {
            return WireCodec.of(ProtocolVersion.V1_0).writeCard(card);
        }
        return CardCodec.writeHybrid(card);
    }

    private static void sendCard(RoutingContext ctx, JsonNode card) {
        ctx.response()
                .putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "public, max-age=30")
                .putHeader("Vary", "A2A-Version")
                .end(card.toString());
    }

    private static List<String> withTag(List<String> tags, String tag) {
        List<String> out = new ArrayList<>(tags);
        if (!out.contains(tag)) {
            out.add(tag);
        }
        return out;
    }

    /** The URL the caller used to reach us: scheme and Host (or X-Forwarded-Proto/Host behind a proxy). */
    static String baseUrl(HttpServerRequest request) {
        String proto = request.getHeader("X-Forwarded-Proto");
        String host = request.getHeader("X-Forwarded-Host");
        String scheme = proto != null ? proto.split(",")[0].trim().toLowerCase(Locale.ROOT) : request.scheme();
        String authority = host != null ? host.split(",")[0].trim()
                : request.authority() != null ? request.authority().toString() : "localhost";
        return scheme + "://" + authority;
    }
}
