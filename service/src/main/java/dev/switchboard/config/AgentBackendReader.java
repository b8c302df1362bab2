package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentIds;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.RegisteredAgent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An AgentBackend document; defaults and shapes from {@link ResourceSchemas#AGENT_BACKEND}. */
final class AgentBackendReader {

    private AgentBackendReader() {}

    static AgentBackendSpec read(DocumentLocation doc, JsonNode node) {
        String name = doc.requiredName(node);
        ShapeCheck.enforce(doc, ResourceSchemas.AGENT_BACKEND, node);
        if (!AgentIds.isValid(name)) {
            throw doc.error("metadata.name", "'" + name + "' is not a valid agent id: " + AgentIds.rule());
        }
        String namespace = node.path("metadata").path("namespace").asText("default");
        SpecTree spec = SpecTree.spec(doc, ResourceSchemas.AGENT_BACKEND, doc.requiredObject(node, "spec"));
        String url = spec.text("url");
        HttpUrls.check(doc, "spec.url", url);
        Map<String, String> headers = spec.textMap("headers");
        for (String header : headers.keySet()) {
            if (!header.matches("[A-Za-z0-9-]+")) {
                throw spec.error("headers." + header, "is not a valid header name");
            }
        }
        SpecTree auth = spec.object("auth");
        SecretRef token = auth.secretRef("tokenSecretRef");
        RegisteredAgent.CallerForwarding forwarding = forwarding(doc, auth, url, token != null);
        SpecTree agentRef = spec.object("agentRef");
        String refNamespace = agentRef.text("namespace");
        String refName = agentRef.text("name");
        return new AgentBackendSpec(name, namespace, url, Dialect.fromConfig(spec.text("dialect")),
                refNamespace == null ? namespace : refNamespace, refName == null ? name : refName,
                spec.text("description"), Map.copyOf(headers), token, limits(spec.object("limits")), skills(spec),
                forwarding, labels(doc, node.path("metadata").path("labels")));
    }

    /**
     * {@code auth.callerJwt} and {@code auth.passThrough}: never both; a caller's own token only to an https agent or
     * one on loopback (anything else would carry it in clear), and not where a tokenSecretRef already sets
     * Authorization.
     */
    private static RegisteredAgent.CallerForwarding forwarding(DocumentLocation doc, SpecTree auth, String url,
            boolean token) {
        boolean signed = auth.flag("callerJwt");
        boolean passThrough = auth.flag("passThrough");
        if (signed && passThrough) {
            throw doc.error("spec.auth", "callerJwt and passThrough exclude each other: choose one");
        }
        if (!passThrough) {
            return signed ? RegisteredAgent.CallerForwarding.SIGNED : RegisteredAgent.CallerForwarding.NONE;
        }
        if (token) {
            throw doc.error("spec.auth.passThrough", "cannot be used with tokenSecretRef: both set Authorization");
        }
        java.net.URI uri = java.net.URI.create(url);
        String host = uri.getHost() == null ? "" : uri.getHost().replace("[", "").replace("]", "");
        boolean loopback = host.equalsIgnoreCase("localhost") || dev.switchboard.net.Addresses.isLoopbackOnly(host);
        if (!"https".equalsIgnoreCase(uri.getScheme()) && !loopback) {
            throw doc.error("spec.auth.passThrough", "passes the caller's token on only to an https agent or one on "
                    + "loopback; " + url + " would carry it in clear");
        }
        return RegisteredAgent.CallerForwarding.PASS_THROUGH;
    }

    /** {@code metadata.labels}, names to strings (what AccessPolicy selectors match). */
    static Map<String, String> labels(DocumentLocation doc, JsonNode labels) {
        if (labels.isMissingNode() || labels.isNull()) {
            return Map.of();
        }
        if (!labels.isObject()) {
            throw doc.error("metadata.labels", "must be a mapping of label names to strings");
        }
        if (labels.size() > 64) {
            throw doc.error("metadata.labels", "has " + labels.size() + " labels; at most 64 are read");
        }
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (var it = labels.fields(); it.hasNext();) {
            var e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw doc.error("metadata.labels." + e.getKey(), "must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static AgentLimits limits(SpecTree l) {
        long maxTimeout = l.whole("maxTimeoutSeconds");
        // not in the schema: it follows maxTimeoutSeconds when that is lower
        long defaultTimeout = l.whole("defaultTimeoutSeconds",
                Math.min(AgentLimits.DEFAULTS.defaultTimeoutSeconds(), maxTimeout));
        if (defaultTimeout > maxTimeout) {
            throw l.error("defaultTimeoutSeconds", defaultTimeout + " is above maxTimeoutSeconds " + maxTimeout);
        }
        return new AgentLimits(l.wholeInt("maxConcurrency"), defaultTimeout, maxTimeout, l.whole("maxResponseBytes"),
                l.whole("streamIdleTimeoutSeconds"));
    }

    private static List<AgentSkill> skills(SpecTree spec) {
        List<AgentSkill> out = new ArrayList<>();
        for (SpecTree s : spec.items("skills")) {
            String id = s.text("id");
            String name = s.text("name");
            String description = s.text("description");
            out.add(new AgentSkill(id, name == null ? id : name, description == null ? "" : description,
                    s.texts("tags"), null, null, null));
        }
        return out;
    }
}
