package dev.switchboard.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.switchboard.chat.slack.SlackMode;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentIds;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.RegistrySettings;
import dev.switchboard.tracing.TracingSettings;
import dev.switchboard.trigger.TriggerFormat;
import dev.switchboard.trigger.TriggerSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the Kubernetes-style YAML configuration (several {@code ---} documents) into a validated
 * {@link SwitchboardConfig}. {@code ${NAME}} and {@code ${NAME:-default}} in values are taken from the
 * environment; an unset variable without a default is an error (a silently empty admin token would
 * be an open door). Every error names the document, the field and the problem.
 */
public final class ConfigLoader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    private static final Set<String> KINDS = Set.of("AgentBackend", "Binding", "Server", "Secret", "SlackApp", "Trigger");

    private final Map<String, String> env;

    public ConfigLoader(Map<String, String> env) {
        this.env = env;
    }

    public SwitchboardConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read the file: " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    public SwitchboardConfig parse(String text, String source) {
        List<JsonNode> docs = new ArrayList<>();
        try (JsonParser parser = YAML.getFactory().createParser(text);
                MappingIterator<JsonNode> it = YAML.readValues(parser, JsonNode.class)) {
            while (it.hasNextValue()) {
                docs.add(it.nextValue());
            }
        } catch (IOException | RuntimeException e) {
            throw new ConfigException(source + ": not valid YAML: " + firstLine(e.getMessage()));
        }
        ServerSpec server = ServerSpec.defaults();
        BridgeSettings bridge = BridgeSettings.DEFAULTS;
        boolean serverSeen = false;
        List<AgentBackendSpec> backends = new ArrayList<>();
        List<BindingSpec> bindings = new ArrayList<>();
        List<SlackAppSpec> slackApps = new ArrayList<>();
        List<TriggerSpec> triggers = new ArrayList<>();
        Map<String, Map<String, String>> secrets = new LinkedHashMap<>();
        int n = 0;
        for (JsonNode raw : docs) {
            n++;
            if (raw == null || raw.isNull() || raw.isMissingNode()) {
                continue;
            }
            Doc doc = new Doc(source, n, raw);
            if (!raw.isObject()) {
                throw doc.error("", "a document must be a mapping with apiVersion, kind, metadata and spec");
            }
            ConfigDocument read = read(doc, substitute(doc, "", raw));
            if (read instanceof ConfigDocument.Server s) {
                if (serverSeen) {
                    throw doc.error("kind", "only one Server document is allowed");
                }
                serverSeen = true;
                server = s.spec();
                bridge = s.bridge();
            } else if (read instanceof ConfigDocument.Secret s) {
                secrets.put(s.name(), s.values());
            } else if (read instanceof ConfigDocument.Backend b) {
                backends.add(b.spec());
            } else if (read instanceof ConfigDocument.SlackApp a) {
                slackApps.add(a.spec());
            } else if (read instanceof ConfigDocument.Trigger t) {
                triggers.add(t.spec());
            } else if (read instanceof ConfigDocument.BindingDoc b) {
                bindings.add(b.spec());
            }
        }
        SwitchboardConfig config = new SwitchboardConfig(server, List.copyOf(backends), List.copyOf(bindings),
                Map.copyOf(secrets), bridge, List.copyOf(slackApps), List.copyOf(triggers));
        List<ConfigDocument.Problem> problems = crossReferences(config);
        if (!problems.isEmpty()) {
            throw new ConfigException(source + ": " + problems.get(0).message());
        }
        return config;
    }

    /**
     * One document on its own, as the Kubernetes watch reads a resource: validated like a document of a file, with
     * no {@code ${VAR}} expansion (a resource written to the cluster must not read this process's environment) and
     * errors that name the field and the problem ({@code spec.url: …}); the resource itself is known to the caller.
     */
    public static ConfigDocument document(JsonNode node) {
        Doc doc = new Doc(null, 0, node);
        if (node == null || !node.isObject()) {
            throw doc.error("", "a document must be a mapping with apiVersion, kind, metadata and spec");
        }
        return read(doc, node);
    }

    private static ConfigDocument read(Doc doc, JsonNode node) {
        String kind = doc.requiredText(node, "kind");
        doc.kind = kind;
        if (!KINDS.contains(kind)) {
            throw doc.error("kind", "unknown kind '" + kind + "' (expected one of AgentBackend, Binding, Server, Secret, SlackApp, Trigger)");
        }
        doc.name = node.path("metadata").path("name").asText(null);
        return switch (kind) {
            case "Server" -> {
                JsonNode listen = node.path("spec").path("listen");
                if (listen.isNumber()) {
                    // a bare port is the usual slip: say what is wanted rather than "must be a string"
                    throw doc.error("spec.listen", "'" + listen.asText() + "' must be host:port, e.g. 0.0.0.0:8080");
                }
                // a misspelled setting would otherwise be its default, silently
                shape(doc, ResourceSchemas.SERVER, node);
                yield new ConfigDocument.Server(doc.name, server(doc, node.path("spec")), bridge(doc, node.path("spec")));
            }
            case "Secret" -> {
                String name = doc.requiredName(node);
                ShapeCheck.secret(node).ifPresent(p -> {
                    throw doc.error(p.field(), p.problem());
                });
                yield new ConfigDocument.Secret(name, secret(doc, node));
            }
            case "AgentBackend" -> new ConfigDocument.Backend(backend(doc, node));
            case "SlackApp" -> new ConfigDocument.SlackApp(slackApp(doc, node));
            case "Trigger" -> new ConfigDocument.Trigger(trigger(doc, node));
            default -> new ConfigDocument.BindingDoc(binding(doc, node));
        };
    }

    /**
     * The checks between resources, on a snapshot of all of them: names defined once, references that resolve
     * (backends, bindings, apps, secrets and their keys), a channel bound once, token shapes. Every resource gets
     * at most one problem (its first), in the order the file loader reports them; the file loader refuses the
     * file on the first, the Kubernetes watch marks each resource that has one.
     */
    public static List<ConfigDocument.Problem> crossReferences(SwitchboardConfig config) {
        List<ConfigDocument.Problem> problems = new ArrayList<>();
        Map<String, Map<String, String>> secrets = config.secrets();
        Set<String> backendNames = new java.util.HashSet<>();
        for (AgentBackendSpec b : config.backends()) {
            String problem = !backendNames.add(b.name()) ? "metadata.name: defined twice"
                    : secretProblem("spec.auth.tokenSecretRef", b.tokenSecretRef(), secrets);
            add(problems, "AgentBackend", b.name(), problem);
        }
        Set<String> channels = new java.util.HashSet<>();
        for (BindingSpec b : config.bindings()) {
            String problem = null;
            if (!backendNames.contains(b.backendRef())) {
                problem = "spec.backendRef.name: no AgentBackend named '" + b.backendRef() + "'";
            }
            if (problem == null) {
                problem = secretProblem("spec.identity.tokenSecretRef", b.tokenSecretRef(), secrets);
            }
            if (problem == null) {
                for (String c : b.channels()) {
                    if (!channels.add(b.platform() + "/" + (b.app() == null ? "" : b.app()) + "/" + c)) {
                        problem = "spec.chat.channels: channel '" + c + "' is already bound by another Binding";
                        break;
                    }
                }
            }
            add(problems, "Binding", b.name(), problem);
        }
        add(problems, "Server", null, secretProblem("spec.storePasswordSecretRef", config.server().storePasswordSecretRef(),
                secrets));
        Set<String> appNames = new java.util.HashSet<>();
        for (SlackAppSpec a : config.slackApps()) {
            String problem = !appNames.add(a.name()) ? "metadata.name: defined twice" : null;
            if (problem == null) {
                problem = firstOf(secretProblem("spec.botToken.secretRef", a.botToken(), secrets),
                        secretProblem("spec.signingSecret.secretRef", a.signingSecret(), secrets),
                        secretProblem("spec.appToken.secretRef", a.appToken(), secrets));
            }
            if (problem == null) {
                problem = firstOf(tokenShapeProblem("spec.botToken", a.botToken(), "xoxb-", secrets),
                        tokenShapeProblem("spec.appToken", a.appToken(), "xapp-", secrets));
            }
            add(problems, "SlackApp", a.name(), problem);
        }
        for (BindingSpec b : config.bindings()) {
            if (b.app() != null && !appNames.contains(b.app())) {
                add(problems, "Binding", b.name(), "spec.chat.app: no SlackApp named '" + b.app() + "'");
            }
        }
        Set<String> triggerNames = new java.util.HashSet<>();
        for (TriggerSpec t : config.triggers()) {
            add(problems, "Trigger", t.name(), triggerProblem(t, triggerNames, config.bindings(), secrets));
        }
        return List.copyOf(problems);
    }

    private static void add(List<ConfigDocument.Problem> problems, String kind, String name, String detail) {
        if (detail != null) {
            problems.add(new ConfigDocument.Problem(kind, name, detail));
        }
    }

    private static String firstOf(String... problems) {
        for (String p : problems) {
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    // ---- kinds ----

    private static ServerSpec server(Doc doc, JsonNode spec) {
        ServerSpec d = ServerSpec.defaults();
        String host = d.host();
        int port = d.port();
        if (spec.hasNonNull("listen")) {
            OpsListen listen = listen(doc, "spec.listen", spec.get("listen").asText());
            host = listen.host();
            port = listen.port();
        }
        OpsListen ops = null;
        if (spec.path("ops").hasNonNull("listen")) {
            ops = listen(doc, "spec.ops.listen", spec.path("ops").get("listen").asText());
            if (ops.port() != 0 && ops.port() == port) {
                throw doc.error("spec.ops.listen", "port " + port + " is the main port (spec.listen); the ops "
                        + "endpoints need a port of their own");
            }
        }
        String store = doc.optionalText(spec, "store", d.store());
        if (store.startsWith(dev.switchboard.store.Database.POSTGRESQL_PREFIX)) {
            try {
                dev.switchboard.store.Database.jdbcUrl(store);
            } catch (IllegalArgumentException e) {
                throw doc.error("spec.store", e.getMessage()); // says what is wrong, never the URL: it may hold a password
            }
        } else if (!store.startsWith("sqlite:")) {
            throw doc.error("spec.store", "'" + dev.switchboard.store.Database.redact(store)
                    + "' is not supported: use sqlite:PATH or postgresql://host:5432/db?user=NAME");
        }
        SecretRef storePassword = secretRef(doc, spec.path("storePasswordSecretRef"), "spec.storePasswordSecretRef");
        if (storePassword != null && !store.startsWith(dev.switchboard.store.Database.POSTGRESQL_PREFIX)) {
            throw doc.error("spec.storePasswordSecretRef", "is only for a postgresql:// store");
        }
        String adminToken = doc.optionalText(spec, "adminToken", null);
        if (adminToken != null && adminToken.isBlank()) {
            adminToken = null;
        }
        if (adminToken != null && adminToken.length() < ServerSpec.MIN_ADMIN_TOKEN_LENGTH) {
            throw doc.error("spec.adminToken", "must be at least " + ServerSpec.MIN_ADMIN_TOKEN_LENGTH
                    + " characters (it guards the registry; use a random value)");
        }
        List<CallerAuth.ApiKey> keys = new ArrayList<>();
        JsonNode apiKeys = spec.path("apiKeys");
        if (!apiKeys.isMissingNode() && !apiKeys.isNull()) {
            if (!apiKeys.isArray()) {
                throw doc.error("spec.apiKeys", "must be a list of {name, key}");
            }
            Set<String> names = new java.util.HashSet<>();
            for (int i = 0; i < apiKeys.size(); i++) {
                String field = "spec.apiKeys[" + i + "]";
                String name = doc.requiredText(apiKeys.get(i), "name", field + ".name");
                String key = doc.requiredText(apiKeys.get(i), "key", field + ".key");
                if (key.length() < 16) {
                    throw doc.error(field + ".key", "must be at least 16 characters");
                }
                if (!names.add(name)) {
                    throw doc.error(field + ".name", "duplicate API key name '" + name + "'");
                }
                keys.add(new CallerAuth.ApiKey(name, key));
            }
        }
        String callerId = doc.optionalText(spec, "callerIdHeader", d.callerIdHeader());
        if (!callerId.matches("[A-Za-z0-9-]+")) {
            throw doc.error("spec.callerIdHeader", "'" + callerId + "' is not a valid header name");
        }
        Duration ttl = doc.duration(spec, "registrationTtl", d.registrationTtl());
        JsonNode gw = spec.path("gateway");
        GatewaySettings g = GatewaySettings.DEFAULTS;
        long maxRequestBytes = doc.positiveLong(gw, "maxRequestBytes", "spec.gateway.maxRequestBytes", g.maxRequestBytes());
        GatewaySettings gateway = new GatewaySettings(
                maxRequestBytes,
                doc.duration(gw, "keepaliveInterval", g.keepaliveInterval()),
                doc.duration(gw, "connectTimeout", g.connectTimeout()),
                // unset, it follows the heap (see GatewaySettings), but never below a maxRequestBytes that was set
                doc.positiveLong(gw, "maxRequestBytesInFlight", "spec.gateway.maxRequestBytesInFlight",
                        Math.max(g.maxRequestBytesInFlight(), maxRequestBytes)));
        if (gateway.maxRequestBytesInFlight() < gateway.maxRequestBytes()) {
            throw doc.error("spec.gateway.maxRequestBytesInFlight", "must be at least maxRequestBytes ("
                    + gateway.maxRequestBytes() + ")");
        }
        boolean insecure = doc.bool(spec, "insecure", "spec.insecure", false);
        String publicUrl = doc.optionalText(spec, "publicUrl", null);
        if (publicUrl != null) {
            publicUrl = publicUrl(doc, publicUrl);
        }
        List<String> hostNames = doc.stringList(spec, "hostNames", "spec.hostNames");
        for (int i = 0; i < hostNames.size(); i++) {
            String n = hostNames.get(i);
            if (!n.equals("*") && !dev.switchboard.net.Addresses.isLiteral(n)
                    && !n.matches("(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\\.?")) {
                throw doc.error("spec.hostNames[" + i + "]", "'" + n + "' is neither a host name (switchboard.example.com),"
                        + " a pattern (*.example.com), an IP address nor * (no port: any port is accepted)");
            }
        }
        JsonNode h = spec.path("http");
        HttpLimits hd = HttpLimits.DEFAULTS;
        HttpLimits http = new HttpLimits(
                doc.duration(h, "idleTimeout", hd.idleTimeout()),
                doc.duration(h, "bodyReadTimeout", hd.bodyReadTimeout()),
                doc.duration(h, "headerReadTimeout", hd.headerReadTimeout()),
                (int) Math.min(Integer.MAX_VALUE,
                        doc.positiveLong(h, "maxConnections", "spec.http.maxConnections", hd.maxConnections())),
                doc.duration(h, "shutdownGracePeriod", hd.shutdownGracePeriod()));
        JsonNode r = spec.path("registry");
        RegistrySettings rd = RegistrySettings.DEFAULTS;
        List<String> allowedHosts = doc.stringList(r, "allowedHosts", "spec.registry.allowedHosts");
        for (int i = 0; i < allowedHosts.size(); i++) {
            String a = allowedHosts.get(i);
            boolean cidr = a.contains("/") || dev.switchboard.net.Addresses.isLiteral(a);
            if (cidr) {
                try {
                    dev.switchboard.net.CidrBlock.parse(a);
                } catch (IllegalArgumentException e) {
                    throw doc.error("spec.registry.allowedHosts[" + i + "]", e.getMessage());
                }
            } else if (!a.matches("(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")) {
                throw doc.error("spec.registry.allowedHosts[" + i + "]", "'" + a
                        + "' is neither a CIDR block (10.0.0.0/8) nor a host pattern (agents.example.com, *.example.com)");
            }
        }
        RegistrySettings registry = new RegistrySettings(allowedHosts, (int) Math.min(Integer.MAX_VALUE,
                doc.positiveLong(r, "maxRegistrations", "spec.registry.maxRegistrations", rd.maxRegistrations())));
        Compat compat;
        try {
            compat = Compat.parse(doc.optionalText(spec, "compat", null));
        } catch (IllegalArgumentException e) {
            throw doc.error("spec.compat", e.getMessage());
        }
        return d.toBuilder().host(host).port(port).store(store).adminToken(adminToken).apiKeys(List.copyOf(keys))
                .callerIdHeader(callerId).registrationTtl(ttl).gateway(gateway).insecure(insecure).publicUrl(publicUrl)
                .http(http).registry(registry).storePasswordSecretRef(storePassword).tracing(tracing(doc, spec.path("tracing")))
                .build().withCompat(compat).withOps(ops).withHostNames(hostNames);
    }

    /** host:port, the host as written (brackets of an IPv6 literal dropped); port 0 picks a free one. */
    private static OpsListen listen(Doc doc, String field, String listen) {
        int colon = listen.lastIndexOf(':');
        if (colon <= 0) {
            throw doc.error(field, "'" + listen + "' must be host:port, e.g. 0.0.0.0:8080");
        }
        return new OpsListen(listen.substring(0, colon).replace("[", "").replace("]", ""),
                doc.port(field, listen.substring(colon + 1)));
    }

    /** spec.tracing: off unless otlpEndpoint is set. */
    private static TracingSettings tracing(Doc doc, JsonNode t) {
        if (t.isMissingNode() || t.isNull()) {
            return TracingSettings.OFF;
        }
        if (!t.isObject()) {
            throw doc.error("spec.tracing", "must be a mapping, e.g. {otlpEndpoint: http://otel-collector:4318}");
        }
        String endpoint = null;
        String field = "spec.tracing.otlpEndpoint";
        try {
            JsonNode e = t.get("otlpEndpoint");
            if (e != null && !e.isNull()) {
                if (!e.isTextual()) {
                    throw new IllegalArgumentException("must be a URL, e.g. http://otel-collector:4318");
                }
                endpoint = e.asText().isBlank() ? null : TracingSettings.endpoint(e.asText());
            }
            field = "spec.tracing.serviceName";
            JsonNode n = t.get("serviceName");
            if (n != null && !n.isNull() && !n.isTextual()) {
                throw new IllegalArgumentException("must be a string");
            }
            String name = n == null || n.isNull() ? null : TracingSettings.serviceName(n.asText());
            field = "spec.tracing.samplingRatio";
            JsonNode r = t.get("samplingRatio");
            double ratio = 1.0;
            if (r != null && !r.isNull()) {
                if (!r.isNumber() && !(r.isTextual() && r.asText().strip().matches("\\d+(\\.\\d*)?|\\.\\d+"))) {
                    throw new IllegalArgumentException("must be a number from 0 to 1, got '" + r.asText() + "'");
                }
                ratio = TracingSettings.samplingRatio(r.isNumber() ? r.asDouble() : Double.parseDouble(r.asText().strip()));
            }
            return new TracingSettings(endpoint, name, ratio);
        } catch (IllegalArgumentException e) {
            throw doc.error(field, e.getMessage());
        }
    }

    /** scheme://host[:port] with no path, query, fragment or userinfo; a trailing slash is dropped. */
    private static String publicUrl(Doc doc, String url) {
        try {
            URI u = new URI(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            if (!u.isAbsolute() || u.getHost() == null
                    || !("http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme()))) {
                throw doc.error("spec.publicUrl", "'" + url + "' must be an absolute http or https URL");
            }
            if (u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null
                    || !(u.getRawPath() == null || u.getRawPath().isEmpty())) {
                throw doc.error("spec.publicUrl", "'" + url + "' must be scheme://host[:port] only, e.g. https://switchboard.example.com");
            }
            return u.toString();
        } catch (java.net.URISyntaxException e) {
            throw doc.error("spec.publicUrl", "'" + url + "' is not a URL: " + e.getReason());
        }
    }

    /** spec.webChat and spec.contract of the Server resource. */
    private static BridgeSettings bridge(Doc doc, JsonNode spec) {
        JsonNode web = spec.path("webChat");
        dev.switchboard.bridge.engine.Actor fallback = dev.switchboard.chat.web.WebChatSettings.DEFAULTS.defaultUser();
        JsonNode user = web.path("defaultUser");
        dev.switchboard.bridge.engine.Actor defaultUser = new dev.switchboard.bridge.engine.Actor(
                user.path("id").asText(fallback.id()), user.path("name").asText(fallback.name()),
                user.path("email").asText("").isBlank() ? null : user.path("email").asText());
        JsonNode c = spec.path("contract");
        dev.switchboard.bridge.engine.ContractDurations d = dev.switchboard.bridge.engine.ContractDurations.DEFAULTS;
        dev.switchboard.bridge.engine.ContractDurations contract = new dev.switchboard.bridge.engine.ContractDurations(
                doc.duration(c, "giveUpAfter", d.giveUpAfter()),
                doc.duration(c, "busyNoticeAfter", d.busyNoticeAfter()),
                doc.duration(c, "silenceLimit", d.silenceLimit()),
                doc.duration(c, "noSignOfLife", d.noSignOfLife()),
                doc.duration(c, "responseHeaders", d.responseHeaders()),
                doc.duration(c, "settleDelay", d.settleDelay()),
                doc.duration(c, "pollBackoffMax", d.pollBackoffMax()),
                doc.duration(c, "retryBackoffMax", d.retryBackoffMax()),
                doc.duration(c, "retryAfterMax", d.retryAfterMax()),
                (int) doc.positiveLong(c, "cancelAttempts", "spec.contract.cancelAttempts", d.cancelAttempts()));
        List<dev.switchboard.net.CidrBlock> proxies = new ArrayList<>();
        List<String> proxyTexts = doc.stringList(web, "trustedProxies", "spec.webChat.trustedProxies");
        for (int i = 0; i < proxyTexts.size(); i++) {
            try {
                proxies.add(dev.switchboard.net.CidrBlock.parse(proxyTexts.get(i)));
            } catch (IllegalArgumentException e) {
                throw doc.error("spec.webChat.trustedProxies[" + i + "]", e.getMessage());
            }
        }
        JsonNode b = spec.path("bridge");
        dev.switchboard.bridge.BridgeLimits bd = dev.switchboard.bridge.BridgeLimits.DEFAULTS;
        dev.switchboard.bridge.BridgeLimits limits = new dev.switchboard.bridge.BridgeLimits(
                (int) Math.min(Integer.MAX_VALUE, doc.positiveLong(b, "maxQueuedTurns", "spec.bridge.maxQueuedTurns", bd.maxQueuedTurns())),
                (int) Math.min(Integer.MAX_VALUE, doc.positiveLong(b, "maxAnswerChars", "spec.bridge.maxAnswerChars", bd.maxAnswerChars())),
                doc.duration(b, "sessionIdleTimeout", bd.sessionIdleTimeout()),
                doc.duration(b, "leaseDuration", bd.leaseDuration()));
        return new BridgeSettings(new dev.switchboard.chat.web.WebChatSettings(
                doc.bool(web, "trustForwardedUser", "spec.webChat.trustForwardedUser", false), defaultUser, proxies),
                contract, limits);
    }

    private static Map<String, String> secret(Doc doc, JsonNode node) {
        Map<String, String> values = new LinkedHashMap<>();
        JsonNode data = node.path("stringData");
        if (data.isObject()) {
            data.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
        }
        JsonNode b64 = node.path("data");
        if (b64.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = b64.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                try {
                    values.put(e.getKey(), new String(java.util.Base64.getDecoder().decode(e.getValue().asText().trim()),
                            java.nio.charset.StandardCharsets.UTF_8));
                } catch (IllegalArgumentException ex) {
                    throw doc.error("data." + e.getKey(), "is not valid base64");
                }
            }
        }
        if (values.isEmpty()) {
            throw doc.error("stringData", "a Secret needs stringData or data with at least one key");
        }
        return Map.copyOf(values);
    }

    private static AgentBackendSpec backend(Doc doc, JsonNode node) {
        String name = doc.requiredName(node);
        shape(doc, dev.switchboard.config.ResourceSchemas.AGENT_BACKEND, node);
        if (!AgentIds.isValid(name)) {
            throw doc.error("metadata.name", "'" + name + "' is not a valid agent id: " + AgentIds.rule());
        }
        String namespace = node.path("metadata").path("namespace").asText("default");
        JsonNode spec = doc.requiredObject(node, "spec");
        String url = doc.requiredText(spec, "url", "spec.url");
        checkUrl(doc, "spec.url", url);
        String dialect = doc.optionalText(spec, "dialect", AgentBackendSpec.DIALECT_A2A);
        if (!dialect.equals(AgentBackendSpec.DIALECT_A2A) && !dialect.equals(AgentBackendSpec.DIALECT_KAGENT)) {
            throw doc.error("spec.dialect", "'" + dialect + "' is not a dialect (expected a2a or kagent-v1)");
        }
        JsonNode agentRef = spec.path("agentRef");
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode h = spec.path("headers");
        if (!h.isMissingNode() && !h.isNull()) {
            if (!h.isObject()) {
                throw doc.error("spec.headers", "must be a mapping of header name to value");
            }
            h.fields().forEachRemaining(e -> {
                if (!e.getKey().matches("[A-Za-z0-9-]+")) {
                    throw doc.error("spec.headers." + e.getKey(), "is not a valid header name");
                }
                if (!e.getValue().isValueNode()) {
                    throw doc.error("spec.headers." + e.getKey(), "must be a string");
                }
                headers.put(e.getKey(), e.getValue().asText());
            });
        }
        SecretRef token = secretRef(doc, spec.path("auth").path("tokenSecretRef"), "spec.auth.tokenSecretRef");
        JsonNode l = spec.path("limits");
        AgentLimits d = AgentLimits.DEFAULTS;
        long maxTimeout = doc.positiveLong(l, "maxTimeoutSeconds", "spec.limits.maxTimeoutSeconds", d.maxTimeoutSeconds());
        long defaultTimeout = doc.positiveLong(l, "defaultTimeoutSeconds", "spec.limits.defaultTimeoutSeconds",
                Math.min(d.defaultTimeoutSeconds(), maxTimeout));
        if (defaultTimeout > maxTimeout) {
            throw doc.error("spec.limits.defaultTimeoutSeconds", defaultTimeout + " is above maxTimeoutSeconds " + maxTimeout);
        }
        AgentLimits limits = new AgentLimits(
                (int) Math.min(Integer.MAX_VALUE, doc.positiveLong(l, "maxConcurrency", "spec.limits.maxConcurrency", d.maxConcurrency())),
                defaultTimeout, maxTimeout,
                doc.positiveLong(l, "maxResponseBytes", "spec.limits.maxResponseBytes", d.maxResponseBytes()),
                doc.positiveLong(l, "streamIdleTimeoutSeconds", "spec.limits.streamIdleTimeoutSeconds", d.streamIdleTimeoutSeconds()));
        return new AgentBackendSpec(name, namespace, url, dialect,
                agentRef.path("namespace").asText(namespace), agentRef.path("name").asText(name),
                doc.optionalText(spec, "description", null), Map.copyOf(headers), token, limits, skills(doc, spec.path("skills")));
    }

    /** Unknown fields and values of the wrong type, by the description the CRDs are generated from. */
    private static void shape(Doc doc, dev.switchboard.config.ResourceKind kind, JsonNode node) {
        dev.switchboard.config.ShapeCheck.check(kind, node).ifPresent(p -> {
            throw doc.error(p.field(), p.problem());
        });
    }

    static List<AgentSkill> skills(Doc doc, JsonNode skills) {
        if (skills.isMissingNode() || skills.isNull()) {
            return List.of();
        }
        if (!skills.isArray()) {
            throw doc.error("spec.skills", "must be a list of {id, name, description, tags}");
        }
        List<AgentSkill> out = new ArrayList<>();
        for (int i = 0; i < skills.size(); i++) {
            JsonNode s = skills.get(i);
            String field = "spec.skills[" + i + "]";
            String id = doc.requiredText(s, "id", field + ".id");
            List<String> tags = new ArrayList<>();
            s.path("tags").forEach(t -> tags.add(t.asText()));
            out.add(new AgentSkill(id, s.path("name").asText(id), s.path("description").asText(""), tags, null, null, null));
        }
        return out;
    }

    private static BindingSpec binding(Doc doc, JsonNode node) {
        String name = doc.requiredName(node);
        shape(doc, dev.switchboard.config.ResourceSchemas.BINDING, node);
        JsonNode spec = doc.requiredObject(node, "spec");
        String backend = doc.requiredText(spec.path("backendRef"), "name", "spec.backendRef.name");
        JsonNode chat = spec.path("chat");
        String platform = doc.requiredText(chat, "platform", "spec.chat.platform");
        if (!platform.equals("web") && !platform.equals("slack")) {
            throw doc.error("spec.chat.platform", "'" + platform + "' is not a chat platform (expected web or slack)");
        }
        List<String> channels = new ArrayList<>();
        chat.path("channels").forEach(c -> channels.add(c.asText()));
        if (channels.isEmpty()) {
            throw doc.error("spec.chat.channels", "list at least one channel");
        }
        String app = null;
        if (platform.equals("slack")) {
            app = doc.requiredText(chat, "app", "spec.chat.app");
            for (String c : channels) {
                // a Slack channel id (C…, G… for private channels) or "im" for direct messages; a name would never match
                if (!c.equals("im") && !c.matches("[CG][A-Z0-9]{2,}")) {
                    throw doc.error("spec.chat.channels", "'" + c + "' is not a Slack channel id (like C0123ABCD) or im");
                }
            }
        } else if (chat.has("app")) {
            throw doc.error("spec.chat.app", "only a slack Binding names an app");
        }
        JsonNode identity = spec.path("identity");
        String userId = identity.path("userId").asText(null);
        SecretRef token = secretRef(doc, identity.path("tokenSecretRef"), "spec.identity.tokenSecretRef");
        if ((userId == null) == (token == null)) {
            throw doc.error("spec.identity", "set exactly one of userId and tokenSecretRef");
        }
        JsonNode q = spec.path("questions");
        boolean allowed = doc.bool(q, "allowed", "spec.questions.allowed", BindingSpec.DEFAULT_QUESTIONS_ALLOWED);
        Duration timeout = doc.duration(q, "timeout", BindingSpec.DEFAULT_QUESTION_TIMEOUT);
        return new BindingSpec(name, backend, platform, app, List.copyOf(channels), userId, token, allowed, timeout,
                approvers(doc, q, platform));
    }

    /** spec.questions.approvers: Slack user and user-group ids, on a slack Binding only; absent is none named. */
    private static List<String> approvers(Doc doc, JsonNode questions, String platform) {
        if (!questions.has("approvers")) {
            return List.of();
        }
        String field = "spec.questions.approvers";
        if (!platform.equals("slack")) {
            throw doc.error(field, "only a slack Binding names approvers (Slack user and user-group ids)");
        }
        List<String> out = new ArrayList<>();
        questions.path("approvers").forEach(a -> out.add(a.asText()));
        if (out.isEmpty()) {
            throw doc.error(field, "list at least one approver, or leave approvers out");
        }
        for (String a : out) {
            if (!a.matches(BindingSpec.APPROVER_PATTERN)) {
                throw doc.error(field, "'" + a + "' is not a Slack user id (like U0123ABCD) or user-group id (like "
                        + "S0123ABCD)");
            }
        }
        return List.copyOf(out);
    }

    private static SlackAppSpec slackApp(Doc doc, JsonNode node) {
        String name = doc.requiredName(node);
        shape(doc, dev.switchboard.config.ResourceSchemas.SLACK_APP, node);
        JsonNode spec = doc.requiredObject(node, "spec");
        String modeText = doc.optionalText(spec, "mode", "events");
        SlackMode mode = switch (modeText) {
            case "events" -> SlackMode.EVENTS;
            case "socket" -> SlackMode.SOCKET;
            default -> throw doc.error("spec.mode", "'" + modeText + "' is not a mode (expected events or socket)");
        };
        SecretRef botToken = secretRef(doc, spec.path("botToken").path("secretRef"), "spec.botToken.secretRef");
        if (botToken == null) {
            throw doc.error("spec.botToken.secretRef", "is required (the bot token, xoxb-…)");
        }
        SecretRef signing = secretRef(doc, spec.path("signingSecret").path("secretRef"), "spec.signingSecret.secretRef");
        SecretRef appToken = secretRef(doc, spec.path("appToken").path("secretRef"), "spec.appToken.secretRef");
        if (mode == SlackMode.EVENTS && signing == null) {
            throw doc.error("spec.signingSecret.secretRef", "is required in events mode (requests are verified with it)");
        }
        if (mode == SlackMode.SOCKET && appToken == null) {
            throw doc.error("spec.appToken.secretRef", "is required in socket mode (the app-level token, xapp-…)");
        }
        String apiUrl = doc.optionalText(spec, "apiUrl", SlackAppSpec.DEFAULT_API_URL);
        checkUrl(doc, "spec.apiUrl", apiUrl);
        if (!apiUrl.endsWith("/")) {
            apiUrl = apiUrl + "/";
        }
        return new SlackAppSpec(name, mode, botToken, signing, appToken, apiUrl);
    }

    private static TriggerSpec trigger(Doc doc, JsonNode node) {
        String name = doc.requiredName(node);
        shape(doc, dev.switchboard.config.ResourceSchemas.TRIGGER, node);
        if (!name.matches("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")) {
            throw doc.error("metadata.name", "'" + name + "' must be lower-case letters, digits and dashes (it is the "
                    + "last segment of /triggers/<name>)");
        }
        JsonNode spec = doc.requiredObject(node, "spec");
        String binding = doc.requiredText(spec.path("bindingRef"), "name", "spec.bindingRef.name");
        String formatText = doc.requiredText(spec, "format", "spec.format");
        TriggerFormat format = TriggerFormat.of(formatText).orElseThrow(() -> doc.error("spec.format", "'" + formatText
                + "' is not a trigger format (expected alertmanager or generic)"));
        SecretRef token = secretRef(doc, spec.path("tokenSecretRef"), "spec.tokenSecretRef");
        if (token == null) {
            throw doc.error("spec.tokenSecretRef", "is required: callers authenticate with this token "
                    + "(Authorization: Bearer <token>)");
        }
        JsonNode rate = spec.path("rateLimit");
        if (!rate.isMissingNode() && !rate.isNull() && !rate.isObject()) {
            throw doc.error("spec.rateLimit", "must be a mapping {perMinute, burst}");
        }
        int perMinute = (int) Math.min(100_000, doc.positiveLong(rate, "perMinute", "spec.rateLimit.perMinute",
                TriggerSettings.DEFAULT_PER_MINUTE));
        int burst = (int) Math.min(100_000, doc.positiveLong(rate, "burst", "spec.rateLimit.burst",
                TriggerSettings.defaultBurst(perMinute)));
        return new TriggerSpec(name, binding, format, token, perMinute, burst);
    }

    private static String triggerProblem(TriggerSpec t, Set<String> names, List<BindingSpec> bindings,
            Map<String, Map<String, String>> secrets) {
        if (!names.add(t.name())) {
            return "metadata.name: defined twice";
        }
        BindingSpec b = bindings.stream().filter(x -> x.name().equals(t.bindingRef())).findFirst().orElse(null);
        if (b == null) {
            return "spec.bindingRef.name: no Binding named '" + t.bindingRef() + "'";
        }
        if (b.platform().equals("slack") && b.channels().get(0).equals("im")) {
            return "spec.bindingRef.name: Binding '" + b.name()
                    + "' lists im (direct messages) first; a trigger posts in the Binding's first channel, so list a "
                    + "channel id first";
        }
        String missing = secretProblem("spec.tokenSecretRef", t.tokenSecretRef(), secrets);
        if (missing != null) {
            return missing;
        }
        String token = secrets.get(t.tokenSecretRef().name()).get(t.tokenSecretRef().key());
        if (token.isBlank()) {
            return "spec.tokenSecretRef: Secret '" + t.tokenSecretRef().name()
                    + "' key '" + t.tokenSecretRef().key() + "' is empty; a trigger needs a token";
        }
        if (token.length() < 16) {
            return "spec.tokenSecretRef: Secret '" + t.tokenSecretRef().name()
                    + "' key '" + t.tokenSecretRef().key() + "' must hold at least 16 characters (use a random value)";
        }
        return null;
    }

    /** A bot token where the app token belongs (or the reverse) is the commonest slip; the message never shows the value. */
    private static String tokenShapeProblem(String field, SecretRef ref, String prefix,
            Map<String, Map<String, String>> secrets) {
        if (ref == null) {
            return null;
        }
        String value = secrets.get(ref.name()).get(ref.key());
        if (!value.startsWith(prefix)) {
            return field + ": Secret '" + ref.name() + "' key '" + ref.key()
                    + "' does not hold a token starting with " + prefix;
        }
        return null;
    }

    private static SecretRef secretRef(Doc doc, JsonNode ref, String field) {
        if (ref.isMissingNode() || ref.isNull()) {
            return null;
        }
        return new SecretRef(doc.requiredText(ref, "name", field + ".name"), doc.requiredText(ref, "key", field + ".key"));
    }

    private static String secretProblem(String field, SecretRef ref, Map<String, Map<String, String>> secrets) {
        if (ref == null) {
            return null;
        }
        Map<String, String> s = secrets.get(ref.name());
        if (s == null) {
            return field + ".name: no Secret named '" + ref.name() + "'";
        }
        if (!s.containsKey(ref.key())) {
            return field + ".key: Secret '" + ref.name() + "' has no key '" + ref.key() + "'";
        }
        return null;
    }

    private static void checkUrl(Doc doc, String field, String url) {
        try {
            URI u = new URI(url);
            if (!u.isAbsolute() || u.getHost() == null
                    || !("http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme()))) {
                throw doc.error(field, "'" + url + "' must be an absolute http or https URL");
            }
            if (u.getPort() == 0 || u.getPort() > 65535) {
                throw doc.error(field, "'" + url + "' has a port outside 1..65535");
            }
        } catch (java.net.URISyntaxException e) {
            throw doc.error(field, "'" + url + "' is not a URL: " + e.getReason());
        }
    }

    // ---- ${VAR} ----

    private JsonNode substitute(Doc doc, String path, JsonNode node) {
        if (node.isTextual()) {
            return TextNode.valueOf(expand(doc, path, node.asText()));
        }
        if (node.isObject()) {
            ObjectNode copy = ((ObjectNode) node).objectNode();
            node.fields().forEachRemaining(e -> copy.set(e.getKey(),
                    substitute(doc, path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue())));
            return copy;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode copy = ((com.fasterxml.jackson.databind.node.ArrayNode) node).arrayNode();
            for (int i = 0; i < node.size(); i++) {
                copy.add(substitute(doc, path + "[" + i + "]", node.get(i)));
            }
            return copy;
        }
        return node;
    }

    private String expand(Doc doc, String path, String value) {
        Matcher m = VAR.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = env.get(m.group(1));
            if (v == null) {
                if (m.group(2) == null) {
                    throw doc.error(path, "environment variable " + m.group(1) + " is not set (write ${"
                            + m.group(1) + ":-} to allow it to be empty)");
                }
                v = m.group(2);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** One document being read, for error messages. */
    static final class Doc {
        final String source;
        final int number;
        final JsonNode raw;
        String kind;
        String name;

        Doc(String source, int number, JsonNode raw) {
            this.source = source;
            this.number = number;
            this.raw = raw;
        }

        ConfigException error(String field, String problem) {
            if (source == null) {
                // a resource read on its own: its kind and name are the caller's to say
                return new ConfigException(field.isEmpty() ? problem : field + ": " + problem);
            }
            String what = "document " + number + (kind == null ? "" : " (" + kind + (name == null ? "" : " " + name) + ")");
            return new ConfigException(source + ": " + what + (field.isEmpty() ? "" : ": " + field) + ": " + problem);
        }

        String requiredName(JsonNode node) {
            String n = requiredText(node.path("metadata"), "name", "metadata.name");
            name = n;
            return n;
        }

        JsonNode requiredObject(JsonNode node, String field) {
            JsonNode v = node.path(field);
            if (!v.isObject()) {
                throw error(field, "is required and must be a mapping");
            }
            return v;
        }

        String requiredText(JsonNode node, String field) {
            return requiredText(node, field, field);
        }

        String requiredText(JsonNode node, String field, String shownAs) {
            JsonNode v = node == null ? null : node.get(field);
            if (v == null || v.isNull() || v.isMissingNode()) {
                throw error(shownAs, "is required");
            }
            if (!v.isValueNode() || v.asText().isBlank()) {
                throw error(shownAs, "must be a non-empty string");
            }
            return v.asText();
        }

        String optionalText(JsonNode node, String field, String fallback) {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.isValueNode()) {
                throw error("spec." + field, "must be a string");
            }
            return v.asText();
        }

        boolean bool(JsonNode node, String field, String shownAs, boolean fallback) {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (v.isBoolean()) {
                return v.booleanValue();
            }
            if (v.isTextual() && (v.asText().equals("true") || v.asText().equals("false"))) {
                return Boolean.parseBoolean(v.asText());
            }
            throw error(shownAs, "must be true or false, got '" + v.asText() + "'");
        }

        List<String> stringList(JsonNode node, String field, String shownAs) {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return List.of();
            }
            if (!v.isArray()) {
                throw error(shownAs, "must be a list of strings");
            }
            List<String> out = new ArrayList<>();
            for (int i = 0; i < v.size(); i++) {
                JsonNode e = v.get(i);
                if (!e.isValueNode() || e.isNull() || e.asText().isBlank()) {
                    throw error(shownAs + "[" + i + "]", "must be a non-empty string");
                }
                out.add(e.asText().trim());
            }
            return List.copyOf(out);
        }

        long positiveLong(JsonNode node, String field, String shownAs, long fallback) {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return fallback;
            }
            boolean whole = v.isIntegralNumber() && v.canConvertToLong() || v.isTextual() && v.asText().matches("-?\\d{1,18}");
            if (!whole) {
                throw error(shownAs, "must be a whole number, got '" + v.asText() + "'");
            }
            long n = v.isTextual() ? Long.parseLong(v.asText()) : v.asLong();
            if (n <= 0) {
                throw error(shownAs, "must be greater than 0, got " + n);
            }
            return n;
        }

        Duration duration(JsonNode node, String field, Duration fallback) {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return fallback;
            }
            try {
                Duration d = Durations.parse(v.asText());
                if (d.isZero()) {
                    throw error(field, "must be longer than 0");
                }
                return d;
            } catch (IllegalArgumentException e) {
                throw error(field, e.getMessage());
            }
        }

        int port(String field, String text) {
            try {
                int p = Integer.parseInt(text);
                if (p < 0 || p > 65535) {
                    throw error(field, "port " + p + " is out of range 0..65535");
                }
                return p;
            } catch (NumberFormatException e) {
                throw error(field, "'" + text + "' is not a port number");
            }
        }
    }
}
