package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.switchboard.config.FieldSchema.Flag;
import dev.switchboard.config.FieldSchema.Obj;
import dev.switchboard.config.FieldSchema.ObjectList;
import dev.switchboard.config.FieldSchema.Span;
import dev.switchboard.config.FieldSchema.Text;
import dev.switchboard.config.FieldSchema.TextList;
import dev.switchboard.config.FieldSchema.TextMap;
import dev.switchboard.config.FieldSchema.WholeNumber;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Holds the generated CRDs and the loader to each other, field by field. Both come from {@link ResourceSchemas} (the
 * loader's checks and defaults through ShapeCheck and SpecTree, the CRDs through CrdGenerator), but through two
 * engines, so this checks what each makes of it: for each kind, valid documents that together set every leaf field
 * load and pass the CRD schema; and for every field present, a value of the wrong type, a value outside an enum, a
 * number under the minimum, a missing required field and an unknown field are refused by the loader with an error
 * naming that field, and by the CRD schema too. (That a field left out loads as its schema default is by
 * construction now; SchemaDrivenLoaderTest checks the defaults against the settings types'.)
 */
class ResourceSchemaConformanceTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ConfigLoader LOADER = new ConfigLoader(Map.of());

    private static final String BACKEND = """
            apiVersion: switchboard.dev/v1
            kind: AgentBackend
            metadata: {name: echo}
            spec: {url: "http://127.0.0.1:9999/"}
            """;
    private static final String SECRETS = """
            apiVersion: v1
            kind: Secret
            metadata: {name: agent-token}
            stringData: {token: a-token-of-enough-length-1234}
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: slack}
            stringData: {bot: xoxb-1-2-3, signing: signing-secret-0123456789, app: xapp-1-2-3}
            """;
    private static final String WEB_BINDING = """
            apiVersion: switchboard.dev/v1
            kind: Binding
            metadata: {name: web-sre}
            spec:
              backendRef: {name: echo}
              chat: {platform: web, channels: [sre]}
              identity: {userId: bot}
            """;
    private static final String SLACK_APP = """
            apiVersion: switchboard.dev/v1
            kind: SlackApp
            metadata: {name: acme}
            spec:
              botToken: {secretRef: {name: slack, key: bot}}
              signingSecret: {secretRef: {name: slack, key: signing}}
            """;

    private static final String KEYED_SERVER = """
            apiVersion: switchboard.dev/v1
            kind: Server
            metadata: {name: main}
            spec:
              apiKeys: [{name: ci-bot, key: "0123456789abcdef"}]
            """;

    /** Per kind: documents of that kind that must load, each with the other documents it needs. */
    private static final Map<ResourceKind, List<Variant>> VARIANTS = Map.of(
            ResourceSchemas.AGENT_BACKEND, List.of(new Variant("""
                    apiVersion: switchboard.dev/v1
                    kind: AgentBackend
                    metadata: {name: k8s-agent, namespace: kagent}
                    spec:
                      url: http://kagent-controller.kagent:8083/api/a2a/kagent/k8s-agent/
                      dialect: kagent-v1
                      agentRef: {namespace: kagent, name: k8s-agent}
                      description: Answers questions about the cluster
                      headers: {X-Team: sre}
                      auth: {tokenSecretRef: {name: agent-token, key: token}}
                      limits: {maxConcurrency: 10, defaultTimeoutSeconds: 60, maxTimeoutSeconds: 600,
                               maxResponseBytes: 1000000, streamIdleTimeoutSeconds: 60}
                      skills: [{id: k8s, name: Kubernetes, description: Reads the cluster, tags: [k8s, ops]}]
                    """, SECRETS), new Variant("""
                    apiVersion: switchboard.dev/v1
                    kind: AgentBackend
                    metadata: {name: signed}
                    spec:
                      url: http://signed.agents.svc:8080/
                      auth: {callerJwt: true}
                    """), new Variant("""
                    apiVersion: switchboard.dev/v1
                    kind: AgentBackend
                    metadata: {name: passed}
                    spec:
                      url: https://passed.agents.example.com/
                      auth: {passThrough: true}
                    """)),
            ResourceSchemas.BINDING, List.of(
                    new Variant("""
                            apiVersion: switchboard.dev/v1
                            kind: Binding
                            metadata: {name: web-echo}
                            spec:
                              backendRef: {name: echo}
                              chat: {platform: web, channels: [echo, ops]}
                              identity: {userId: switchboard}
                              questions: {allowed: false, timeout: 30m}
                            """, BACKEND),
                    new Variant("""
                            apiVersion: switchboard.dev/v1
                            kind: Binding
                            metadata: {name: slack-echo}
                            spec:
                              backendRef: {name: echo}
                              chat: {platform: slack, app: acme, channels: [C0123ABCD, im]}
                              identity: {tokenSecretRef: {name: agent-token, key: token}}
                              questions: {approvers: [U0123ABCD, W0456EFGH, S0789IJKL]}
                              allowedUsers: [U0123ABCD, S0789IJKL]
                              feedback: {sendToAgent: true}
                            """, BACKEND, SECRETS, SLACK_APP)),
            ResourceSchemas.SLACK_APP, List.of(
                    new Variant("""
                            apiVersion: switchboard.dev/v1
                            kind: SlackApp
                            metadata: {name: acme}
                            spec:
                              mode: events
                              botToken: {secretRef: {name: slack, key: bot}}
                              signingSecret: {secretRef: {name: slack, key: signing}}
                              apiUrl: http://127.0.0.1:9/api/
                            """, SECRETS),
                    new Variant("""
                            apiVersion: switchboard.dev/v1
                            kind: SlackApp
                            metadata: {name: acme}
                            spec:
                              mode: socket
                              botToken: {secretRef: {name: slack, key: bot}}
                              appToken: {secretRef: {name: slack, key: app}}
                              streaming: native
                            """, SECRETS)),
            ResourceSchemas.TRIGGER, List.of(new Variant("""
                    apiVersion: switchboard.dev/v1
                    kind: Trigger
                    metadata: {name: alerts}
                    spec:
                      bindingRef: {name: web-sre}
                      format: alertmanager
                      tokenSecretRef: {name: agent-token, key: token}
                      rateLimit: {perMinute: 120, burst: 20}
                    """, BACKEND, WEB_BINDING, SECRETS)),
            ResourceSchemas.ACCESS_POLICY, List.of(
                    new Variant("""
                            apiVersion: switchboard.dev/v1
                            kind: AccessPolicy
                            metadata: {name: ci}
                            spec:
                              subjects: [{apiKey: ci-bot}]
                              agents: {names: [echo], selector: {matchLabels: {team: sre}}, skillTags: [triage]}
                              methods: [message/send, tasks/get]
                              rateLimit: {rate: 2.5, burst: 5}
                            """, KEYED_SERVER),
                    new Variant("""
                            apiVersion: switchboard.dev/v1
                            kind: AccessPolicy
                            metadata: {name: sre}
                            spec:
                              subjects: [{claim: groups, values: [sre, ops]}]
                              methods: ["*"]
                            """),
                    new Variant("""
                            apiVersion: switchboard.dev/v1
                            kind: AccessPolicy
                            metadata: {name: console-admins}
                            spec:
                              subjects: [{claim: groups, values: [sre]}]
                              admin: true
                            """)));

    record Variant(String document, String... others) {
        ObjectNode tree() {
            try {
                return (ObjectNode) YAML.readTree(document);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The whole configuration with {@code doc} in place of the variant's own document. */
        String config(JsonNode doc) {
            try {
                StringBuilder out = new StringBuilder(YAML.writeValueAsString(doc));
                for (String o : others) {
                    out.append("---\n").append(o);
                }
                return out.toString();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void everyKindHasVariants() {
        assertThat(VARIANTS.keySet()).containsExactlyInAnyOrderElementsOf(ResourceSchemas.ALL);
    }

    @TestFactory
    Stream<DynamicTest> variantsLoadAndPassTheCrdAndTogetherSetEveryField() {
        return ResourceSchemas.ALL.stream().map(kind -> DynamicTest.dynamicTest(kind.kind(), () -> {
            CrdSchemaValidator crd = CrdSchemaValidator.of(kind);
            Set<String> covered = new LinkedHashSet<>();
            for (Variant v : VARIANTS.get(kind)) {
                ObjectNode doc = v.tree();
                LOADER.parse(v.config(doc), "variant.yaml");
                assertThat(crd.errors(doc)).as(kind.kind() + " variant against its CRD").isEmpty();
                for (String leaf : leaves(kind.spec(), "spec").keySet()) {
                    if (at(doc, leaf) != null) {
                        covered.add(leaf);
                    }
                }
            }
            assertThat(covered).as("leaf fields of " + kind.kind() + " set by some variant")
                    .containsExactlyInAnyOrderElementsOf(leaves(kind.spec(), "spec").keySet());
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyFieldRefusesWhatItsSchemaRefuses() {
        List<DynamicTest> tests = new ArrayList<>();
        for (ResourceKind kind : ResourceSchemas.ALL) {
            CrdSchemaValidator crd = CrdSchemaValidator.of(kind);
            Map<String, FieldSchema> fields = new LinkedHashMap<>();
            fields.putAll(leaves(kind.spec(), "spec"));
            fields.putAll(objects(kind.spec(), "spec"));
            for (Map.Entry<String, FieldSchema> f : fields.entrySet()) {
                String path = f.getKey();
                Variant v = VARIANTS.get(kind).stream().filter(x -> at(x.tree(), path) != null).findFirst().orElseThrow();
                for (Map.Entry<String, JsonNode> bad : badValues(f.getValue()).entrySet()) {
                    tests.add(DynamicTest.dynamicTest(kind.kind() + " " + path + " " + bad.getKey(), () -> {
                        ObjectNode doc = v.tree();
                        set(doc, path, bad.getValue());
                        assertRefused(kind, crd, v, doc, path);
                    }));
                }
                if (f.getValue() instanceof Obj o) {
                    tests.add(DynamicTest.dynamicTest(kind.kind() + " " + path + " unknown field", () -> {
                        ObjectNode doc = v.tree();
                        ((ObjectNode) at(doc, path)).put("colour", "blue");
                        assertRefused(kind, crd, v, doc, path + ".colour");
                    }));
                    for (String r : o.required()) {
                        tests.add(DynamicTest.dynamicTest(kind.kind() + " " + path + "." + r + " missing", () -> {
                            ObjectNode doc = v.tree();
                            ((ObjectNode) at(doc, path)).remove(r);
                            assertRefused(kind, crd, v, doc, path + "." + r);
                        }));
                    }
                    if (!o.exactlyOne().isEmpty()) {
                        tests.add(DynamicTest.dynamicTest(kind.kind() + " " + path + " both of " + o.exactlyOne(), () -> {
                            ObjectNode doc = v.tree();
                            ObjectNode here = (ObjectNode) at(doc, path);
                            for (String name : o.exactlyOne()) {
                                if (!here.has(name)) {
                                    here.set(name, example(o.properties().get(name)));
                                }
                            }
                            assertRefused(kind, crd, v, doc, path);
                        }));
                    }
                }
            }
            tests.add(DynamicTest.dynamicTest(kind.kind() + " unknown top-level field", () -> {
                Variant v = VARIANTS.get(kind).get(0);
                ObjectNode doc = v.tree();
                doc.put("specs", "typo");
                assertRefused(kind, crd, v, doc, "specs");
            }));
        }
        return tests.stream();
    }

    @Test
    void aWrongTypeIsNamedWithWhatWasExpected() {
        String doc = BACKEND.replace("spec: {url: \"http://127.0.0.1:9999/\"}",
                "spec: {url: \"http://127.0.0.1:9999/\", limits: {maxConcurrency: lots}}");
        assertThatThrownBy(() -> LOADER.parse(doc, "c.yaml")).isInstanceOf(ConfigException.class)
                .hasMessage("c.yaml: document 1 (AgentBackend echo): spec.limits.maxConcurrency: must be a whole number, "
                        + "got 'lots'");
        String typo = BACKEND.replace("spec: {url: \"http://127.0.0.1:9999/\"}",
                "spec: {url: \"http://127.0.0.1:9999/\", limit: {maxConcurrency: 5}}");
        assertThatThrownBy(() -> LOADER.parse(typo, "c.yaml")).hasMessageContaining("spec.limit: unknown field (expected one of "
                + "url, dialect, agentRef, description, headers, auth, limits, skills)");
    }

    @Test
    void aValueFromTheEnvironmentIsReadAsTheTypeTheFieldWants() {
        ConfigLoader withEnv = new ConfigLoader(Map.of("CONC", "7", "ASK", "false"));
        String doc = BACKEND.replace("spec: {url: \"http://127.0.0.1:9999/\"}",
                "spec: {url: \"http://127.0.0.1:9999/\", limits: {maxConcurrency: \"${CONC}\"}}");
        assertThat(withEnv.parse(doc, "c.yaml").backends().get(0).limits().maxConcurrency()).isEqualTo(7);
        String binding = WEB_BINDING + "  questions: {allowed: \"${ASK}\"}\n";
        assertThat(withEnv.parse(BACKEND + "---\n" + binding, "c.yaml").bindings().get(0).questionsAllowed()).isFalse();
    }

    // ---- helpers ----

    private static void assertRefused(ResourceKind kind, CrdSchemaValidator crd, Variant v, ObjectNode doc, String field) {
        String config = v.config(doc);
        assertThatThrownBy(() -> LOADER.parse(config, "c.yaml")).as("the loader on\n" + config)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("(" + kind.kind() + " ")
                .hasMessageContaining(": " + field);
        assertThat(crd.errors(doc)).as("the CRD schema on\n" + config).isNotEmpty();
    }

    /** Values a field of this schema must refuse, by what is wrong with them. */
    private static Map<String, JsonNode> badValues(FieldSchema f) {
        JsonNodeFactory n = JsonNodeFactory.instance;
        Map<String, JsonNode> out = new LinkedHashMap<>();
        ArrayNode list = n.arrayNode().add("x");
        ObjectNode mapping = n.objectNode().put("x", "y");
        if (f instanceof Text t) {
            out.put("a number", IntNode.valueOf(42));
            out.put("a list", list);
            if (!t.allowed().isEmpty()) {
                out.put("outside the enum", TextNode.valueOf("not-" + t.allowed().get(0)));
            }
        } else if (f instanceof WholeNumber w) {
            out.put("a word", TextNode.valueOf("lots"));
            out.put("a fraction", n.numberNode(1.5));
            out.put("under the minimum", n.numberNode(w.minimum() - 1));
        } else if (f instanceof Flag) {
            out.put("a word", TextNode.valueOf("maybe"));
            out.put("a number", IntNode.valueOf(1));
        } else if (f instanceof Span) {
            out.put("not a duration", TextNode.valueOf("soon"));
            out.put("a mapping", mapping);
        } else if (f instanceof TextList l) {
            out.put("a string", TextNode.valueOf("x"));
            out.put("a list of numbers", n.arrayNode().add(1));
            if (l.itemPattern() != null) {
                out.put("an item outside its pattern", n.arrayNode().add("not an id"));
            }
        } else if (f instanceof TextMap) {
            out.put("a list", list);
            out.put("a number value", n.objectNode().put("X-A", 1));
        } else if (f instanceof ObjectList) {
            out.put("a string", TextNode.valueOf("x"));
            out.put("a list of strings", list);
        } else {
            out.put("a string", TextNode.valueOf("x"));
            out.put("a list", list);
        }
        return out;
    }

    private static JsonNode example(FieldSchema f) {
        if (f instanceof Text t) {
            return TextNode.valueOf(t.example());
        }
        if (f instanceof Obj o) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            o.properties().forEach((name, p) -> {
                if (o.required().contains(name)) {
                    out.set(name, example(p));
                }
            });
            return out;
        }
        throw new IllegalArgumentException("no example for " + f);
    }

    /** Leaf fields by path; a list of objects contributes its first item's fields as path[0].field. */
    static Map<String, FieldSchema> leaves(FieldSchema f, String path) {
        Map<String, FieldSchema> out = new LinkedHashMap<>();
        if (f instanceof Obj o) {
            o.properties().forEach((name, p) -> out.putAll(leaves(p, path + "." + name)));
        } else if (f instanceof ObjectList l) {
            out.putAll(leaves(l.items(), path + "[0]"));
        } else {
            out.put(path, f);
        }
        return out;
    }

    /** Objects and lists of objects by path (the same paths as {@link #leaves}). */
    private static Map<String, FieldSchema> objects(FieldSchema f, String path) {
        Map<String, FieldSchema> out = new LinkedHashMap<>();
        if (f instanceof Obj o) {
            out.put(path, o);
            o.properties().forEach((name, p) -> out.putAll(objects(p, path + "." + name)));
        } else if (f instanceof ObjectList l) {
            out.put(path, l);
            out.putAll(objects(l.items(), path + "[0]"));
        }
        return out;
    }

    private static JsonNode at(JsonNode doc, String path) {
        JsonNode n = doc;
        for (String part : path.split("\\.")) {
            int bracket = part.indexOf('[');
            n = n.get(bracket < 0 ? part : part.substring(0, bracket));
            if (n == null) {
                return null;
            }
            if (bracket >= 0) {
                n = n.get(Integer.parseInt(part.substring(bracket + 1, part.length() - 1)));
                if (n == null) {
                    return null;
                }
            }
        }
        return n;
    }

    private static void set(ObjectNode doc, String path, JsonNode value) {
        int dot = path.lastIndexOf('.');
        ObjectNode parent = dot < 0 ? doc : (ObjectNode) at(doc, path.substring(0, dot));
        parent.set(path.substring(dot + 1), value);
    }
}
