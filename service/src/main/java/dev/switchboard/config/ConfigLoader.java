package dev.switchboard.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.switchboard.policy.AccessPolicySpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the Kubernetes-style YAML configuration (several {@code ---} documents) into a validated
 * {@link SwitchboardConfig}. {@code ${NAME}} and {@code ${NAME:-default}} in values are taken from the environment
 * ({@link Placeholders}). Each document is held to its kind's schema ({@link ShapeCheck}) and read by its kind's reader
 * with the schema's defaults ({@link SpecTree}); then the references between documents are checked
 * ({@link CrossReferences}). Every error names the file, the document, the field and the problem.
 */
public final class ConfigLoader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> KINDS = Set.of("AgentBackend", "Binding", "Server", "Secret", "SlackApp", "Trigger",
            "AccessPolicy");

    private final Placeholders placeholders;

    public ConfigLoader(Map<String, String> env) {
        this.placeholders = new Placeholders(env);
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
        SwitchboardConfig config = SwitchboardConfig.empty();
        boolean serverSeen = false;
        List<AgentBackendSpec> backends = new ArrayList<>();
        List<BindingSpec> bindings = new ArrayList<>();
        List<SlackAppSpec> slackApps = new ArrayList<>();
        List<TriggerSpec> triggers = new ArrayList<>();
        List<AccessPolicySpec> policies = new ArrayList<>();
        Map<String, Map<String, String>> secrets = new LinkedHashMap<>();
        int n = 0;
        for (JsonNode raw : docs) {
            n++;
            if (raw == null || raw.isNull() || raw.isMissingNode()) {
                continue;
            }
            DocumentLocation doc = new DocumentLocation(source, n);
            if (!raw.isObject()) {
                throw doc.error("", "a document must be a mapping with apiVersion, kind, metadata and spec");
            }
            ConfigDocument read = read(doc, placeholders.expand(doc, "", raw));
            if (read instanceof ConfigDocument.Server s) {
                if (serverSeen) {
                    throw doc.error("kind", "only one Server document is allowed");
                }
                serverSeen = true;
                config = config.withServer(s.spec()).withBridge(s.bridge());
            } else if (read instanceof ConfigDocument.Secret s) {
                secrets.put(s.name(), s.values());
            } else if (read instanceof ConfigDocument.Backend b) {
                backends.add(b.spec());
            } else if (read instanceof ConfigDocument.SlackApp a) {
                slackApps.add(a.spec());
            } else if (read instanceof ConfigDocument.Trigger t) {
                triggers.add(t.spec());
            } else if (read instanceof ConfigDocument.AccessPolicy p) {
                policies.add(p.spec());
            } else if (read instanceof ConfigDocument.BindingDoc b) {
                bindings.add(b.spec());
            }
        }
        config = config.withBackends(List.copyOf(backends)).withBindings(List.copyOf(bindings))
                .withSecrets(Map.copyOf(secrets)).withSlackApps(slackApps).withTriggers(triggers)
                .withPolicies(policies);
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
        DocumentLocation doc = new DocumentLocation(null, 0);
        if (node == null || !node.isObject()) {
            throw doc.error("", "a document must be a mapping with apiVersion, kind, metadata and spec");
        }
        return read(doc, node);
    }

    /**
     * The checks between resources, on a snapshot of all of them ({@link CrossReferences}). Every resource gets at
     * most one problem (its first), in the order the file loader reports them.
     */
    public static List<ConfigDocument.Problem> crossReferences(SwitchboardConfig config) {
        return CrossReferences.check(config);
    }

    private static ConfigDocument read(DocumentLocation doc, JsonNode node) {
        String kind = doc.requiredText(node, "kind", "kind");
        doc.kind(kind);
        if (!KINDS.contains(kind)) {
            throw doc.error("kind", "unknown kind '" + kind + "' (expected one of AgentBackend, Binding, Server, Secret, SlackApp, Trigger, AccessPolicy)");
        }
        doc.name(node.path("metadata").path("name").asText(null));
        return switch (kind) {
            case "Server" -> ServerReader.read(doc, node);
            case "Secret" -> SecretReader.read(doc, node);
            case "AgentBackend" -> new ConfigDocument.Backend(AgentBackendReader.read(doc, node));
            case "SlackApp" -> new ConfigDocument.SlackApp(SlackAppReader.read(doc, node));
            case "Trigger" -> new ConfigDocument.Trigger(TriggerReader.read(doc, node));
            case "AccessPolicy" -> new ConfigDocument.AccessPolicy(AccessPolicyReader.read(doc, node));
            default -> new ConfigDocument.BindingDoc(BindingReader.read(doc, node));
        };
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
