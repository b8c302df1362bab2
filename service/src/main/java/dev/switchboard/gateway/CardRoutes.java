package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.auth.Caller;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.auth.Unauthorized;
import dev.switchboard.policy.AccessControl;
import dev.switchboard.policy.Grants;
import dev.switchboard.net.Addresses;
import dev.switchboard.net.CidrBlock;
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
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * G10: Switchboard's own card, and each agent's card rewritten so that every interface points at
 * the gateway ({@code …/a2a/{agentId}}): a stock A2A client given the gateway's card URL then talks
 * through the gateway unchanged. Agent cards are fetched with the agent's static headers and the
 * caller's {@code A2A-Version} (the agent picks the shape), cached briefly per agent and normalised
 * version (1.0, 0.3 or none: at most three per agent, dropped with the agent); an agent without a
 * usable card gets one built from its registration.
 *
 * <p>The gateway's own URL in cards is {@code Server.spec.publicUrl}, else the address the connection
 * arrived on — never the caller's {@code Host}, which anyone can set: a card is cached by clients and
 * proxies, and one poisoned by a forged Host would send the next reader's calls elsewhere.
 * {@code X-Forwarded-Host}/{@code -Proto} are believed only from the trusted proxies.
 *
 * <p>With API keys set (issue 22, M3), an agent's card needs a key like every other read: 401 before the registry
 * is asked or the agent is contacted (its card is fetched with the agent's own headers, its token among them,
 * which must not work for anyone who asks). The platform card stays public, for discovery, but an anonymous
 * caller's copy lists no agent and no skill, and nothing is fetched for it. KubeMQ's platform card lists nothing
 * of the agents and is the same for everyone.
 */
public final class CardRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The cache's version keys: what {@link #normalisedVersion} can return. */
    private static final List<String> VERSIONS = List.of("1.0", "0.3", "");
    private static final long CACHE_MILLIS = 30_000;
    private static final int MAX_CARD_BYTES = 1024 * 1024;

    private static final Pattern FORWARDED_HOST = Pattern.compile("[A-Za-z0-9.-]+(:\\d{1,5})?|\\[[0-9A-Fa-f:.]+\\](:\\d{1,5})?");

    private final HttpClientAgent client;
    private final AgentRegistry registry;
    private final Egress egress;
    private final String version;
    private final String publicUrl;
    private final List<CidrBlock> trustedProxies;
    private final CallerAuth callers;
    private final ConcurrentHashMap<CacheKey, Cached> cache = new ConcurrentHashMap<>();
    /** The platform card is KubeMQ's ({@code compat: kubemq}). */
    private boolean kubemqPlatformCard;
    private AccessControl access = AccessControl.open();

    private record Cached(long expiresAt, ObjectNode card) {}

    /** @param a2aVersion "1.0", "0.3" or "" (none, or one we do not know) */
    private record CacheKey(String agentId, String a2aVersion) {}

    /**
     * @param publicUrl scheme://host[:port] clients reach us at, or null for the connection's local address
     * @param trustedProxies the addresses whose X-Forwarded-Host/-Proto are believed
     * @param callers who may read the agents' cards (anyone, when no API keys are set)
     */
    public CardRoutes(HttpClientAgent client, AgentRegistry registry, Egress egress, String version, String publicUrl,
            List<CidrBlock> trustedProxies, CallerAuth callers) {
        this.callers = callers;
        this.client = client;
        this.registry = registry;
        this.egress = egress;
        this.version = version;
        this.publicUrl = publicUrl == null ? null : publicUrl.replaceAll("/+$", "");
        this.trustedProxies = List.copyOf(trustedProxies);
    }

    /**
     * Serves KubeMQ's platform card at {@code /.well-known/agent-card.json} (its reference §10): {@code name: "kubemq"}
     * and KubeMQ's other fixed fields, its {@code url} this gateway's.
     */
    public CardRoutes kubemqPlatformCard(boolean kubemq) {
        this.kubemqPlatformCard = kubemq;
        return this;
    }

    /** The AccessPolicies: the platform card lists, and an agent's card is shown for, only agents granted the caller. */
    public CardRoutes access(AccessControl access) {
        this.access = access;
        return this;
    }

    /** Forgets cached cards, e.g. after a registration changed. */
    public void invalidate() {
        cache.clear();
    }

    /** Forgets the cards of a removed agent. */
    public void forget(String agentId) {
        for (String v : VERSIONS) {
            cache.remove(new CacheKey(agentId, v));
        }
    }

    /** The A2A-Version header as one of a few cache keys: anything else would let callers fill the cache. */
    static String normalisedVersion(String header) {
        if (header == null) {
            return "";
        }
        String v = header.trim();
        if (v.equals("1") || v.startsWith("1.")) {
            return "1.0";
        }
        if (v.equals("0.3") || v.startsWith("0.3.")) {
            return "0.3";
        }
        return "";
    }

    private void remember(RegisteredAgent agent, String a2aVersion, ObjectNode card) {
        // an agent removed while its card was being fetched must not leave the card behind
        if (registry.find(agent.id()).isPresent()) {
            cache.put(new CacheKey(agent.id(), a2aVersion), new Cached(System.currentTimeMillis() + CACHE_MILLIS, card));
        }
    }

    /** {@code GET /.well-known/agent-card.json}: Switchboard's own card. */
    public void platformCard(RoutingContext ctx) {
        if (kubemqPlatformCard) {
            sendCard(ctx, kubemqCard(baseUrl(ctx.request()) + "/"));
            return;
        }
        String base = baseUrl(ctx.request()) + "/a2a";
        callers.authenticate(ctx.request()).onComplete(known -> {
            if (known.failed()) {
                // an anonymous caller on a keyed server: the card says where the gateway is, nothing of its agents
                platformCard(ctx, base, List.of());
                return;
            }
            platformCardWithAgents(ctx, base, known.result());
        });
    }

    private void platformCardWithAgents(RoutingContext ctx, String base, Caller caller) {
        Grants grants = access.grants();
        List<RegisteredAgent> agents = registry.list(List.of(), Integer.MAX_VALUE).stream()
                .filter(a -> grants.mayCall(caller, a)).toList();
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
        Cached hit = cache.get(new CacheKey(agent.id(), ""));
        Future<ObjectNode> card = hit != null && hit.expiresAt > System.currentTimeMillis()
                ? Future.succeededFuture(hit.card)
                : fetch(agent, "").onSuccess(c -> remember(agent, "", c));
        return card.map(c -> CardCodec.read(c).skills()).otherwise(List.of());
    }

    static ObjectNode kubemqCard(String url) {
        ObjectNode card = JSON.createObjectNode();
        card.put("name", "kubemq");
        card.put("description", "KubeMQ A2A Gateway");
        card.put("version", "latest");
        card.put("url", url);
        card.putArray("skills");
        card.putArray("defaultInputModes").add("text");
        card.putArray("defaultOutputModes").add("text");
        card.putArray("protocolVersions").add("1.0");
        return card;
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

    /** {@code GET /a2a/{agentId}/.well-known/agent-card.json}: the agent's card, its URLs the gateway's. */
    public void agentCard(RoutingContext ctx) {
        callers.authenticate(ctx.request()).onComplete(known -> {
            if (known.failed()) {
                // before the registry is asked: the answer is the same for agents that exist and agents that do not
                String challenge = known.cause() instanceof Unauthorized u ? u.challenge() : "Bearer";
                String message = known.cause() instanceof Unauthorized u ? u.getMessage() : "unauthorized";
                ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", challenge)
                        .putHeader("Content-Type", "application/json")
                        .end(new io.vertx.core.json.JsonObject().put("error", message).encode());
                return;
            }
            agentCardFor(ctx, known.result());
        });
    }

    private void agentCardFor(RoutingContext ctx, Caller caller) {
        String id = ctx.pathParam("agentId");
        RegisteredAgent agent = registry.find(id).orElse(null);
        if (agent == null) {
            ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json")
                    .end("{\"error\":\"agent not found: " + id.replaceAll("[^a-zA-Z0-9-]", "") + "\"}");
            return;
        }
        Grants.Decision granted = access.grants().agent(caller, agent);
        if (!granted.allowed()) {
            ctx.response().setStatusCode(403).putHeader("Content-Type", "application/json")
                    .end(JSON.createObjectNode().put("error", granted.refusal()).toString());
            return;
        }
        String requested = normalisedVersion(ctx.request().getHeader("A2A-Version"));
        String gatewayUrl = baseUrl(ctx.request()) + "/a2a/" + id;
        Cached hit = cache.get(new CacheKey(id, requested));
        if (hit != null && hit.expiresAt > System.currentTimeMillis()) {
            sendCard(ctx, rewrite(hit.card.deepCopy(), gatewayUrl));
            return;
        }
        fetch(agent, requested).onComplete(ar -> {
            ObjectNode card = ar.succeeded() ? ar.result() : null;
            if (card != null) {
                remember(agent, requested, card);
                sendCard(ctx, rewrite(card.deepCopy(), gatewayUrl));
            } else {
                sendCard(ctx, (ObjectNode) write(fromRegistration(agent, gatewayUrl), ctx.request()));
            }
        });
    }

    /** The agent's own card, fetched now as a card request would (egress rules, size and time bounds): the console's probe. */
    public Future<ObjectNode> probe(RegisteredAgent agent) {
        return fetch(agent, "");
    }

    /** {@code card} (a copy) as callers get it from {@code GET /a2a/{id}/.well-known/agent-card.json} here. */
    public ObjectNode rewritten(ObjectNode card, HttpServerRequest request, String agentId) {
        return rewrite(card.deepCopy(), baseUrl(request) + "/a2a/" + agentId);
    }

    private Future<ObjectNode> fetch(RegisteredAgent agent, String a2aVersion) {
        String url = agent.url().replaceAll("/+$", "") + "/.well-known/agent-card.json";
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        agent.headers().forEach(headers::set);
        headers.set("Accept", "application/json");
        if (!a2aVersion.isEmpty()) {
            headers.set("A2A-Version", a2aVersion);
        }
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url).setHeaders(headers)
                .setFollowRedirects(false).setConnectTimeout(5_000).setIdleTimeout(10_000);
        return egress.aim(agent, options)
                .compose(client::request)
                .compose(req -> {
                    // failures reach us through the futures; without handlers, a reset is logged at ERROR
                    req.exceptionHandler(ignored -> { });
                    return req.send();
                })
                .compose(resp -> {
                    resp.exceptionHandler(ignored -> { });
                    if (resp.statusCode() != 200) {
                        resp.request().reset(); // its body is of no use: not read
                        return Future.failedFuture("HTTP " + resp.statusCode());
                    }
                    return bodyWithin(resp);
                })
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

    /** The card's bytes, counted as they arrive: past the limit the fetch is abandoned and its connection reset. */
    private static Future<Buffer> bodyWithin(HttpClientResponse resp) {
        String declared = resp.getHeader("Content-Length");
        if (declared != null && declared.matches("\\d+") && Long.parseLong(declared) > MAX_CARD_BYTES) {
            resp.request().reset();
            return Future.failedFuture("card too large");
        }
        Promise<Buffer> done = Promise.promise();
        Buffer body = Buffer.buffer();
        resp.handler(chunk -> {
            if (done.future().isComplete()) {
                return;
            }
            if (body.length() + chunk.length() > MAX_CARD_BYTES) {
                done.tryFail("card too large");
                resp.request().reset();
                return;
            }
            body.appendBuffer(chunk);
        });
        resp.exceptionHandler(done::tryFail);
        resp.endHandler(v -> done.tryComplete(body));
        return done.future();
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

    private void sendCard(RoutingContext ctx, JsonNode card) {
        ctx.response()
                .putHeader("Content-Type", "application/json")
                // private: the card names the URL this caller reached us at, which a shared cache must not hand on
                .putHeader("Cache-Control", "private, max-age=30")
                // with keys, who asks decides what the platform card lists
                .putHeader("Vary", callers.required() ? "A2A-Version, Authorization" : "A2A-Version")
                .end(card.toString());
    }

    private static List<String> withTag(List<String> tags, String tag) {
        List<String> out = new ArrayList<>(tags);
        if (!out.contains(tag)) {
            out.add(tag);
        }
        return out;
    }

    /**
     * Our URL in cards: {@code publicUrl}; else, from a trusted proxy, its X-Forwarded-Proto/Host (when
     * well formed); else the local address and port the connection arrived on. Never the Host header.
     */
    public String baseUrl(HttpServerRequest request) {
        if (publicUrl != null) {
            return publicUrl;
        }
        String scheme = request.isSSL() ? "https" : "http";
        String authority = localAuthority(request);
        if (fromTrustedProxy(request)) {
            String proto = first(request.getHeader("X-Forwarded-Proto"));
            if (proto != null && (proto.equalsIgnoreCase("http") || proto.equalsIgnoreCase("https"))) {
                scheme = proto.toLowerCase(Locale.ROOT);
            }
            String host = first(request.getHeader("X-Forwarded-Host"));
            if (host != null && FORWARDED_HOST.matcher(host).matches()) {
                authority = host;
            }
        }
        return scheme + "://" + authority;
    }

    private boolean fromTrustedProxy(HttpServerRequest request) {
        SocketAddress remote = request.remoteAddress();
        if (trustedProxies.isEmpty() || remote == null || remote.hostAddress() == null) {
            return false;
        }
        return Addresses.literal(remote.hostAddress()).map(a -> CidrBlock.anyContains(trustedProxies, a)).orElse(false);
    }

    private static String localAuthority(HttpServerRequest request) {
        SocketAddress local = request.localAddress();
        if (local == null || local.hostAddress() == null) {
            return "localhost";
        }
        String host = local.hostAddress();
        int zone = host.indexOf('%');
        if (zone >= 0) {
            host = host.substring(0, zone);
        }
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + local.port();
    }

    private static String first(String header) {
        if (header == null) {
            return null;
        }
        String v = header.split(",")[0].trim();
        return v.isEmpty() ? null : v;
    }
}
