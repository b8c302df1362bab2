package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.auth.JwtIssuer;
import dev.switchboard.bridge.BridgeLimits;
import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.ContractDurations;
import dev.switchboard.chat.web.WebChatSettings;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.net.Addresses;
import dev.switchboard.net.CidrBlock;
import dev.switchboard.registry.RegistrySettings;
import dev.switchboard.store.Database;
import dev.switchboard.tracing.TracingSettings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Server document: its {@link ServerSpec} and the chat bridge's {@link BridgeSettings}. Defaults come from
 * {@link ResourceSchemas#SERVER}; what is checked here is what the schema cannot say (address and URL forms, rules
 * between fields, credentials' lengths).
 */
final class ServerReader {

    /** A host name, optionally a {@code *.} pattern, as hostNames and allowedHosts take them. */
    private static final String HOST_PATTERN =
            "(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*";

    private ServerReader() {}

    static ConfigDocument.Server read(DocumentLocation doc, JsonNode node) {
        JsonNode listen = node.path("spec").path("listen");
        if (listen.isNumber()) {
            // a bare port is the usual slip: say what is wanted rather than "must be a string"
            throw doc.error("spec.listen", "'" + listen.asText() + "' must be host:port, e.g. 0.0.0.0:8080");
        }
        // a misspelled setting would otherwise be its default, silently
        ShapeCheck.enforce(doc, ResourceSchemas.SERVER, node);
        SpecTree spec = SpecTree.spec(doc, ResourceSchemas.SERVER, node.path("spec"));
        return new ConfigDocument.Server(doc.name(), server(doc, spec), bridge(spec));
    }

    private static ServerSpec server(DocumentLocation doc, SpecTree spec) {
        OpsListen main = listen(doc, "spec.listen", spec.text("listen"));
        OpsListen ops = null;
        SpecTree opsTree = spec.object("ops");
        if (opsTree.has("listen")) {
            ops = listen(doc, "spec.ops.listen", opsTree.text("listen"));
            if (ops.port() != 0 && ops.port() == main.port()) {
                throw doc.error("spec.ops.listen", "port " + main.port() + " is the main port (spec.listen); the ops "
                        + "endpoints need a port of their own");
            }
        }
        String store = spec.text("store");
        if (store.startsWith(Database.POSTGRESQL_PREFIX)) {
            try {
                Database.jdbcUrl(store);
            } catch (IllegalArgumentException e) {
                throw doc.error("spec.store", e.getMessage()); // says what is wrong, never the URL: it may hold a password
            }
        } else if (!store.startsWith("sqlite:")) {
            throw doc.error("spec.store", "'" + Database.redact(store)
                    + "' is not supported: use sqlite:PATH or postgresql://host:5432/db?user=NAME");
        }
        SecretRef storePassword = spec.secretRef("storePasswordSecretRef");
        if (storePassword != null && !store.startsWith(Database.POSTGRESQL_PREFIX)) {
            throw doc.error("spec.storePasswordSecretRef", "is only for a postgresql:// store");
        }
        String adminToken = spec.text("adminToken");
        if (adminToken != null && adminToken.isBlank()) {
            adminToken = null;
        }
        if (adminToken != null && adminToken.length() < ServerSpec.MIN_ADMIN_TOKEN_LENGTH) {
            throw doc.error("spec.adminToken", "must be at least " + ServerSpec.MIN_ADMIN_TOKEN_LENGTH
                    + " characters (it guards the registry; use a random value)");
        }
        String callerId = spec.text("callerIdHeader");
        if (!callerId.matches("[A-Za-z0-9-]+")) {
            throw doc.error("spec.callerIdHeader", "'" + callerId + "' is not a valid header name");
        }
        String publicUrl = spec.text("publicUrl");
        Compat compat;
        try {
            compat = Compat.parse(spec.text("compat"));
        } catch (IllegalArgumentException e) {
            throw doc.error("spec.compat", e.getMessage());
        }
        return ServerSpec.defaults().toBuilder()
                .host(main.host()).port(main.port())
                .store(store).storePasswordSecretRef(storePassword)
                .adminToken(adminToken).apiKeys(apiKeys(spec))
                .callerIdHeader(callerId)
                .registrationTtl(spec.span("registrationTtl"))
                .gateway(gateway(spec.object("gateway")))
                .insecure(spec.flag("insecure"))
                .publicUrl(publicUrl == null ? null : HttpUrls.origin(doc, "spec.publicUrl", publicUrl))
                .http(http(spec.object("http")))
                .registry(registry(spec.object("registry")))
                .tracing(tracing(spec.object("tracing")))
                .mcp(mcp(spec.object("mcp")))
                .auth(auth(spec.object("auth")))
                .build()
                .withCompat(compat).withOps(ops).withHostNames(hostNames(spec));
    }

    /** host:port, the host as written (brackets of an IPv6 literal dropped); port 0 picks a free one. */
    private static OpsListen listen(DocumentLocation doc, String field, String listen) {
        int colon = listen.lastIndexOf(':');
        if (colon <= 0) {
            throw doc.error(field, "'" + listen + "' must be host:port, e.g. 0.0.0.0:8080");
        }
        String port = listen.substring(colon + 1);
        try {
            int p = Integer.parseInt(port);
            if (p < 0 || p > 65535) {
                throw doc.error(field, "port " + p + " is out of range 0..65535");
            }
            return new OpsListen(listen.substring(0, colon).replace("[", "").replace("]", ""), p);
        } catch (NumberFormatException e) {
            throw doc.error(field, "'" + port + "' is not a port number");
        }
    }

    private static List<CallerAuth.ApiKey> apiKeys(SpecTree spec) {
        List<CallerAuth.ApiKey> keys = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (SpecTree k : spec.items("apiKeys")) {
            String name = k.text("name");
            String key = k.text("key");
            if (key.length() < 16) {
                throw k.error("key", "must be at least 16 characters");
            }
            if (!names.add(name)) {
                throw k.error("name", "duplicate API key name '" + name + "'");
            }
            keys.add(new CallerAuth.ApiKey(name, key));
        }
        return List.copyOf(keys);
    }

    private static List<String> hostNames(SpecTree spec) {
        List<String> hostNames = spec.trimmedTexts("hostNames");
        for (int i = 0; i < hostNames.size(); i++) {
            String n = hostNames.get(i);
            if (!n.equals("*") && !Addresses.isLiteral(n) && !n.matches(HOST_PATTERN + "\\.?")) {
                throw spec.error("hostNames[" + i + "]", "'" + n + "' is neither a host name (switchboard.example.com),"
                        + " a pattern (*.example.com), an IP address nor * (no port: any port is accepted)");
            }
        }
        return hostNames;
    }

    private static GatewaySettings gateway(SpecTree gw) {
        long maxRequestBytes = gw.whole("maxRequestBytes");
        GatewaySettings gateway = new GatewaySettings(maxRequestBytes, gw.span("keepaliveInterval"),
                gw.span("connectTimeout"),
                // unset, it follows the heap (see GatewaySettings), but never below a maxRequestBytes that was set
                gw.whole("maxRequestBytesInFlight",
                        Math.max(GatewaySettings.DEFAULTS.maxRequestBytesInFlight(), maxRequestBytes)),
                callerLimits(gw.object("callerLimits")), streamBuffer(gw.object("streamBuffer")), push(gw.object("push")));
        if (gateway.maxRequestBytesInFlight() < gateway.maxRequestBytes()) {
            throw gw.error("maxRequestBytesInFlight", "must be at least maxRequestBytes (" + gateway.maxRequestBytes()
                    + ")");
        }
        return gateway;
    }

    private static dev.switchboard.mcp.McpSettings mcp(SpecTree m) {
        dev.switchboard.mcp.McpSettings d = dev.switchboard.mcp.McpSettings.DEFAULTS;
        return new dev.switchboard.mcp.McpSettings(m.flag("enabled"), m.flag("toolsPerSkill"),
                m.wholeInt("maxSessions"), m.span("sessionIdleTimeout"), d.maxTextBytes());
    }

    private static dev.switchboard.push.PushSettings push(SpecTree p) {
        dev.switchboard.push.PushSettings d = dev.switchboard.push.PushSettings.DEFAULTS;
        return new dev.switchboard.push.PushSettings(p.span("firstRetry"), p.span("maxRetryWait"), p.wholeInt("maxAttempts"),
                p.span("timeout"), d.batch(), d.keepDone(), d.maxBodyBytes());
    }

    private static dev.switchboard.gateway.StreamBufferSettings streamBuffer(SpecTree b) {
        return new dev.switchboard.gateway.StreamBufferSettings(b.wholeInt("events"), b.whole("bytes"), b.span("age"),
                b.wholeInt("tasks"), b.has("holdAfterDrop") ? b.span("holdAfterDrop") : java.time.Duration.ZERO);
    }

    private static dev.switchboard.policy.CallerLimitSettings callerLimits(SpecTree c) {
        dev.switchboard.policy.CallerLimitSettings.Rate perCaller = null;
        if (c.has("rate")) {
            perCaller = AccessPolicyReader.rate(c);
        }
        dev.switchboard.policy.CallerLimitSettings.Rate perAgent = null;
        if (c.has("perAgent")) {
            perAgent = AccessPolicyReader.rate(c.object("perAgent"));
        }
        int maxConcurrency = (int) Math.min(Integer.MAX_VALUE, c.whole("maxConcurrency", 0));
        return new dev.switchboard.policy.CallerLimitSettings(perCaller, perAgent, maxConcurrency);
    }

    private static HttpLimits http(SpecTree h) {
        return new HttpLimits(h.span("idleTimeout"), h.span("bodyReadTimeout"), h.span("headerReadTimeout"),
                h.wholeInt("maxConnections"), h.span("shutdownGracePeriod"));
    }

    private static RegistrySettings registry(SpecTree r) {
        List<String> allowedHosts = r.trimmedTexts("allowedHosts");
        for (int i = 0; i < allowedHosts.size(); i++) {
            String a = allowedHosts.get(i);
            if (a.contains("/") || Addresses.isLiteral(a)) {
                try {
                    CidrBlock.parse(a);
                } catch (IllegalArgumentException e) {
                    throw r.error("allowedHosts[" + i + "]", e.getMessage());
                }
            } else if (!a.matches(HOST_PATTERN)) {
                throw r.error("allowedHosts[" + i + "]", "'" + a
                        + "' is neither a CIDR block (10.0.0.0/8) nor a host pattern (agents.example.com, *.example.com)");
            }
        }
        return new RegistrySettings(allowedHosts, r.wholeInt("maxRegistrations"), r.span("probeInterval"));
    }

    /** spec.auth: JWT issuers (each once, with exactly one of jwksUri and jwks) and the caller-token signing key. */
    private static AuthSettings auth(SpecTree a) {
        List<JwtIssuer> issuers = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<SpecTree> items = a.items("jwt");
        for (int i = 0; i < items.size(); i++) {
            SpecTree j = items.get(i);
            String issuer = j.text("issuer");
            if (issuer.isBlank() || !seen.add(issuer)) {
                throw j.error("issuer", issuer.isBlank() ? "must not be empty" : "duplicate issuer '" + issuer + "'");
            }
            String uri = j.text("jwksUri");
            String inline = j.text("jwks");
            if ((uri == null) == (inline == null)) {
                throw j.error("exactly one of jwksUri and jwks is needed");
            }
            java.net.URI jwksUri = null;
            if (uri != null) {
                try {
                    jwksUri = java.net.URI.create(uri);
                } catch (IllegalArgumentException e) {
                    throw j.error("jwksUri", "is not a URL");
                }
                String host = jwksUri.getHost() == null ? "" : jwksUri.getHost();
                boolean https = "https".equalsIgnoreCase(jwksUri.getScheme());
                boolean loopbackHttp = "http".equalsIgnoreCase(jwksUri.getScheme())
                        && (host.equalsIgnoreCase("localhost") || Addresses.isLoopbackOnly(host));
                if (jwksUri.getHost() == null || !(https || loopbackHttp)) {
                    throw j.error("jwksUri", "'" + JwtIssuer.printable(jwksUri) + "' must be an https URL (http only "
                            + "on loopback): keys fetched in clear could be replaced on the way");
                }
            }
            List<String> audiences = j.trimmedTexts("audiences");
            if (audiences.isEmpty() || audiences.stream().anyMatch(String::isBlank)) {
                throw j.error("audiences", "name at least one non-empty audience");
            }
            JwtIssuer parsed = new JwtIssuer(issuer, audiences, jwksUri, inline, j.text("claimsToCaller"));
            if (inline != null) {
                try {
                    com.nimbusds.jose.jwk.JWKSet.parse(inline);
                } catch (java.text.ParseException e) {
                    throw j.error("jwks", "is not a JWKS document (a JSON object with \"keys\")");
                }
            }
            issuers.add(parsed);
        }
        SpecTree c = a.object("callerJwt");
        String issuer = c.text("issuer");
        return new AuthSettings(issuers, issuer == null || issuer.isBlank() ? null : issuer,
                c.secretRef("signingKeySecretRef"));
    }

    /** spec.tracing: off unless otlpEndpoint is set. */
    private static TracingSettings tracing(SpecTree t) {
        String field = "otlpEndpoint";
        try {
            String e = t.text("otlpEndpoint");
            String endpoint = e == null || e.isBlank() ? null : TracingSettings.endpoint(e);
            field = "serviceName";
            String name = t.has("serviceName") ? TracingSettings.serviceName(t.text("serviceName")) : null;
            field = "samplingRatio";
            return new TracingSettings(endpoint, name, TracingSettings.samplingRatio(t.fraction("samplingRatio")));
        } catch (IllegalArgumentException e) {
            throw t.error(field, e.getMessage());
        }
    }

    /** spec.webChat, spec.contract and spec.bridge. */
    private static BridgeSettings bridge(SpecTree spec) {
        SpecTree web = spec.object("webChat");
        SpecTree user = web.object("defaultUser");
        String email = user.text("email");
        Actor defaultUser = new Actor(user.text("id"), user.text("name"), email == null || email.isBlank() ? null : email);
        List<String> proxyTexts = web.trimmedTexts("trustedProxies");
        List<CidrBlock> proxies = new ArrayList<>();
        for (int i = 0; i < proxyTexts.size(); i++) {
            try {
                proxies.add(CidrBlock.parse(proxyTexts.get(i)));
            } catch (IllegalArgumentException e) {
                throw web.error("trustedProxies[" + i + "]", e.getMessage());
            }
        }
        SpecTree c = spec.object("contract");
        ContractDurations contract = new ContractDurations(c.span("giveUpAfter"), c.span("busyNoticeAfter"),
                c.span("silenceLimit"), c.span("noSignOfLife"), c.span("responseHeaders"), c.span("settleDelay"),
                c.span("pollBackoffMax"), c.span("retryBackoffMax"), c.span("retryAfterMax"),
                c.wholeInt("cancelAttempts"));
        SpecTree b = spec.object("bridge");
        BridgeLimits limits = new BridgeLimits(b.wholeInt("maxQueuedTurns"), b.wholeInt("maxAnswerChars"),
                b.span("sessionIdleTimeout"), b.span("leaseDuration"));
        return new BridgeSettings(new WebChatSettings(web.flag("trustForwardedUser"), defaultUser, proxies), contract,
                limits);
    }
}
