package dev.switchboard.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.config.CrdSchemaValidator;
import dev.switchboard.config.ResourceKind;
import dev.switchboard.config.ResourceSchemas;
import dev.switchboard.config.ShapeCheck;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every manifest in deploy/: built-in kinds parse into fabric8's typed models with no field the model does not know
 * (a typo would be dropped by the API server, or refused by kubectl), and hold what the service relies on; custom
 * resources pass their CRD's schema (deploy/crds) and load with the config loader; the config documents in the README
 * pass the CRD schemas too.
 */
class DeployManifestsTest {

    static final Path DEPLOY = Path.of("..", "deploy");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** fabric8's 8.x models are Jackson 3's (their free-form schema fields are tools.jackson JsonNodes). */
    private static final tools.jackson.databind.json.JsonMapper MODELS = tools.jackson.databind.json.JsonMapper.builder()
            .disable(tools.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    /** Not a Kubernetes manifest: the Slack app manifest pasted into api.slack.com (see the README's Slack section). */
    private static final Set<String> NOT_KUBERNETES = Set.of("slack-app-manifest.yaml");
    private static final Map<String, Class<?>> TYPED = Map.of(
            "v1/Namespace", Namespace.class,
            "v1/ServiceAccount", ServiceAccount.class,
            "v1/ConfigMap", ConfigMap.class,
            "v1/Secret", Secret.class,
            "v1/Service", Service.class,
            "apps/v1/Deployment", Deployment.class,
            "rbac.authorization.k8s.io/v1/Role", Role.class,
            "rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class,
            "apiextensions.k8s.io/v1/CustomResourceDefinition", CustomResourceDefinition.class);
    private static final String CUSTOM = ResourceKind.GROUP + "/" + ResourceKind.VERSION;
    private static final Map<String, String> ENV = Map.of(
            "SWITCHBOARD_ADMIN_TOKEN", "an-admin-token-0123456789",
            "SWITCHBOARD_API_KEY", "an-api-key-0123456789");

    record Manifest(Path file, int index, JsonNode node) {
        String type() {
            return node.path("apiVersion").asText() + "/" + node.path("kind").asText();
        }

        String name() {
            return node.path("metadata").path("name").asText();
        }

        <T> T as(Class<T> type) {
            try {
                return MODELS.readValue(node.toString(), type);
            } catch (RuntimeException e) {
                throw new AssertionError(this + " does not parse as " + type.getSimpleName() + ": " + e.getMessage(), e);
            }
        }

        @Override
        public String toString() {
            return DEPLOY.relativize(file) + " document " + index + " (" + type() + " " + name() + ")";
        }
    }

    @Test
    void everyDocumentIsAKubernetesObjectOfAKindWeCheck() throws IOException {
        List<Manifest> all = manifests();
        assertThat(all).hasSizeGreaterThan(10);
        for (Manifest m : all) {
            assertThat(m.name()).as(m + ": metadata.name").isNotBlank();
            assertThat(TYPED.containsKey(m.type()) || m.node().path("apiVersion").asText().equals(CUSTOM))
                    .as(m + ": a kind this test checks").isTrue();
            if (!m.type().equals("v1/Namespace") && !m.type().endsWith("/CustomResourceDefinition")) {
                assertThat(m.node().path("metadata").path("namespace").asText()).as(m + ": namespace").isEqualTo("switchboard");
            }
        }
        for (String skipped : NOT_KUBERNETES) {
            assertThat(docs(DEPLOY.resolve(skipped))).allSatisfy(d -> assertThat(d.has("apiVersion")).isFalse());
        }
    }

    @Test
    void builtInKindsParseIntoTheirTypedModelsWithNoFieldTheModelDoesNotKnow() throws Exception {
        for (Manifest m : manifests()) {
            Class<?> type = TYPED.get(m.type());
            if (type != null) {
                List<String> unknown = new ArrayList<>();
                unknownFields(m.as(type), "", unknown);
                assertThat(unknown).as(m + ": fields the " + type.getSimpleName() + " model does not have").isEmpty();
            }
        }
    }

    @Test
    void theCrdsDescribeEveryKindWithItsStatus() throws IOException {
        Map<String, CustomResourceDefinition> crds = new HashMap<>();
        for (Manifest m : manifests()) {
            if (m.type().endsWith("/CustomResourceDefinition")) {
                crds.put(m.name(), m.as(CustomResourceDefinition.class));
            }
        }
        assertThat(crds.keySet()).containsExactlyInAnyOrderElementsOf(
                ResourceSchemas.ALL.stream().map(ResourceKind::crdName).toList());
        for (ResourceKind k : ResourceSchemas.ALL) {
            CustomResourceDefinition crd = crds.get(k.crdName());
            assertThat(crd.getSpec().getGroup()).isEqualTo("switchboard.dev");
            assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
            assertThat(crd.getSpec().getNames().getKind()).isEqualTo(k.kind());
            CustomResourceDefinitionVersion v = crd.getSpec().getVersions().get(0);
            assertThat(v.getName()).isEqualTo("v1");
            assertThat(v.getServed()).isTrue();
            assertThat(v.getStorage()).isTrue();
            assertThat(v.getSubresources().getStatus()).as(k.kind() + " status subresource").isNotNull();
            assertThat(v.getSchema().getOpenAPIV3Schema().getProperties().get("status").getProperties()
                    .get("conditions").getItems().getSchema().getProperties())
                    .containsKeys("type", "status", "reason", "message", "lastTransitionTime", "observedGeneration");
            assertThat(v.getAdditionalPrinterColumns()).extracting(c -> c.getName()).contains("Ready", "Age");
        }
    }

    @Test
    void customResourcesPassTheirCrdSchemaAndLoadWithTheConfigLoader() throws IOException {
        Map<String, CrdSchemaValidator> validators = validators();
        StringBuilder config = new StringBuilder();
        int custom = 0;
        for (Manifest m : manifests()) {
            if (m.node().path("apiVersion").asText().equals(CUSTOM)) {
                custom++;
                CrdSchemaValidator v = validators.get(m.node().path("kind").asText());
                assertThat(v).as(m + ": a CRD in deploy/crds").isNotNull();
                assertThat(v.errors(m.node())).as(m + " against its CRD").isEmpty();
            }
            if (m.node().path("apiVersion").asText().equals(CUSTOM) || m.type().equals("v1/Secret")) {
                config.append("---\n").append(YAML.writeValueAsString(m.node()));
            }
        }
        assertThat(custom).as("example resources").isGreaterThanOrEqualTo(3);
        SwitchboardConfig loaded = new ConfigLoader(Map.of()).parse(config.toString(), "deploy/examples");
        assertThat(loaded.backends()).extracting(b -> b.name()).contains("echo", "k8s-agent");
        assertThat(loaded.bindings()).extracting(b -> b.name()).contains("web-echo");
    }

    @Test
    void theReadmesConfigDocumentsPassTheCrdSchemas() throws IOException {
        Map<String, CrdSchemaValidator> validators = validators();
        String readme = dev.switchboard.RepositoryDocs.text(DEPLOY.getParent()); // README.md and docs/
        Matcher blocks = Pattern.compile("(?s)```yaml\\n(.*?)```").matcher(readme);
        Map<String, Integer> seen = new java.util.TreeMap<>();
        while (blocks.find()) {
            String block = blocks.group(1).replaceAll("(?m)^(\\s*)\\d+\\. ", "$1   "); // none today; numbered-list indents
            for (JsonNode doc : docs(dedent(block))) {
                String kind = doc.path("kind").asText();
                if (doc.path("apiVersion").asText().equals(CUSTOM) && validators.containsKey(kind)) {
                    seen.merge(kind, 1, Integer::sum);
                    assertThat(validators.get(kind).errors(doc)).as("README " + kind + " " + doc).isEmpty();
                    assertThat(ShapeCheck.check(ResourceSchemas.of(kind).orElseThrow(), doc)).as("README " + kind).isEmpty();
                }
            }
        }
        assertThat(seen.keySet()).as("kinds shown in the README").contains("AgentBackend", "Binding", "SlackApp", "Trigger");
    }

    @Test
    void everyDeploymentRunsTheImageLockedDownWithWritableVolumesOnly() throws IOException {
        List<Manifest> deployments = manifests().stream().filter(m -> m.type().equals("apps/v1/Deployment")).toList();
        assertThat(deployments).hasSizeGreaterThanOrEqualTo(2);
        for (Manifest m : deployments) {
            PodSpec pod = m.as(Deployment.class).getSpec().getTemplate().getSpec();
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(m + " runAsNonRoot").isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).as(m + " the image's user").isEqualTo(65532L);
            assertThat(pod.getSecurityContext().getSeccompProfile().getType()).as(m + " seccomp").isEqualTo("RuntimeDefault");
            for (Container c : pod.getContainers()) {
                assertThat(c.getImage()).as(m + " the image Jib builds").isEqualTo("switchboard:" + projectVersion());
                assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).as(m + " read-only root").isTrue();
                assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).as(m + " escalation").isFalse();
                assertThat(c.getSecurityContext().getCapabilities().getDrop()).as(m + " capabilities").containsExactly("ALL");
                assertThat(c.getResources().getLimits()).as(m + " memory limit").containsKey("memory");
                assertThat(c.getReadinessProbe().getHttpGet().getPath()).as(m + " readiness").isEqualTo("/readyz");
                Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
                for (VolumeMount vm : c.getVolumeMounts()) {
                    Volume v = volumes.get(vm.getName());
                    assertThat(v).as(m + " volume " + vm.getName()).isNotNull();
                    boolean writable = !Boolean.TRUE.equals(vm.getReadOnly());
                    if (writable) {
                        assertThat(v.getEmptyDir()).as(m + ": a writable mount is an emptyDir: " + vm.getMountPath()).isNotNull();
                    }
                }
                assertThat(c.getVolumeMounts()).extracting(VolumeMount::getMountPath).as(m + " mounts").contains("/tmp", "/data");
            }
        }
    }

    @Test
    void theDeploymentRunsWatchModeWithProbesResourcesAndItsConfig() throws IOException {
        Deployment d = one("apps/v1/Deployment", "switchboard").as(Deployment.class);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        Container c = pod.getContainers().get(0);
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(c.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(c.getResources().getLimits()).containsKey("memory");

        Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
        Map<String, VolumeMount> mounts = c.getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getMountPath, m -> m));
        assertThat(mounts.keySet()).containsExactlyInAnyOrder("/tmp", "/data", "/etc/switchboard");
        assertThat(volumes.get(mounts.get("/tmp").getName()).getEmptyDir()).isNotNull();
        assertThat(volumes.get(mounts.get("/data").getName()).getEmptyDir()).isNotNull();
        assertThat(mounts.get("/etc/switchboard").getReadOnly()).isTrue();
        String configMap = volumes.get(mounts.get("/etc/switchboard").getName()).getConfigMap().getName();

        assertThat(c.getArgs()).containsSubsequence("serve", "--kubernetes")
                .containsSubsequence("--config", "/etc/switchboard/switchboard.yaml");
        assertThat(pod.getServiceAccountName()).isEqualTo(one("v1/ServiceAccount", pod.getServiceAccountName()).name());

        // the Server resource it reads: from the ConfigMap, its ${VAR}s from the container's environment
        String server = one("v1/ConfigMap", configMap).as(ConfigMap.class).getData().get("switchboard.yaml");
        assertThat(server).as("ConfigMap " + configMap + " key switchboard.yaml").isNotNull();
        Set<String> vars = new TreeSet<>();
        Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)").matcher(server).results().forEach(r -> vars.add(r.group(1)));
        Set<String> env = c.getEnv().stream().map(EnvVar::getName).collect(Collectors.toSet());
        assertThat(env).as("the container's environment").containsAll(vars);
        Map<String, String> values = new HashMap<>();
        vars.forEach(v -> values.put(v, ENV.getOrDefault(v, "a-value-of-sixteen-or-more")));
        ServerSpec spec = new ConfigLoader(values).parse(server, "ConfigMap " + configMap).server();
        assertThat(spec.port()).isEqualTo(c.getPorts().get(0).getContainerPort());
        assertThat(spec.host()).as("reachable through the Service").isEqualTo("0.0.0.0");
        assertThat(spec.store()).as("the store on the data volume").startsWith("sqlite:/data/");

        // the Secret the credentials come from is made by the README's command, with these keys
        String readme = dev.switchboard.RepositoryDocs.text(DEPLOY.getParent()); // README.md and docs/
        for (EnvVar e : c.getEnv()) {
            if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                var ref = e.getValueFrom().getSecretKeyRef();
                assertThat(readme).as("README makes Secret " + ref.getName())
                        .contains("create secret generic " + ref.getName())
                        .contains("--from-literal=" + ref.getKey() + "=");
            }
        }

        Service svc = one("v1/Service", "switchboard").as(Service.class);
        assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(svc.getSpec().getSelector());
        assertThat(svc.getSpec().getPorts().get(0).getTargetPort().getStrVal()).isEqualTo(c.getPorts().get(0).getName());
    }

    /**
     * M5: an AgentBackend or a Binding sends its token Secret to its url, and may only name a Secret that carries the
     * opt-in label; Switchboard's own credentials (the Deployment's, a SlackApp's) must not carry it, or whoever may
     * write an AgentBackend could have them sent to themselves.
     */
    @Test
    void onlyAgentTokenSecretsCarryTheLabelThatLetsBackendsSendThem() throws IOException {
        String label = "switchboard.dev/usable-by-backends";
        Map<String, JsonNode> secrets = new HashMap<>();
        Set<String> sentToAgents = new TreeSet<>();
        Set<String> switchboardsOwn = new TreeSet<>();
        for (Manifest m : manifests()) {
            JsonNode spec = m.node().path("spec");
            switch (m.type()) {
                case "v1/Secret" -> secrets.put(m.name(), m.node());
                case CUSTOM + "/AgentBackend" -> addName(sentToAgents, spec.path("auth").path("tokenSecretRef"));
                case CUSTOM + "/Binding" -> addName(sentToAgents, spec.path("identity").path("tokenSecretRef"));
                case CUSTOM + "/SlackApp" -> List.of("botToken", "signingSecret", "appToken")
                        .forEach(f -> addName(switchboardsOwn, spec.path(f).path("secretRef")));
                case "apps/v1/Deployment" -> m.node().findValues("secretKeyRef")
                        .forEach(ref -> addName(switchboardsOwn, ref));
                default -> { }
            }
        }
        assertThat(sentToAgents).as("the examples show a token Secret").isNotEmpty();
        assertThat(switchboardsOwn).as("the Deployment's credentials").contains("switchboard-credentials");
        for (String name : sentToAgents) {
            assertThat(secrets).as("Secret " + name + " in deploy/").containsKey(name);
            assertThat(secrets.get(name).path("metadata").path("labels").path(label).isTextual())
                    .as("Secret " + name + "'s label is the string \"true\" (a bare true is no label value)").isTrue();
            assertThat(secrets.get(name).path("metadata").path("labels").path(label).asText()).isEqualTo("true");
        }
        for (String name : switchboardsOwn) {
            assertThat(sentToAgents).as("Switchboard's own Secret " + name + " is sent to no agent").doesNotContain(name);
            if (secrets.containsKey(name)) {
                assertThat(secrets.get(name).path("metadata").path("labels").has(label))
                        .as("Switchboard's own Secret " + name + " carries no " + label).isFalse();
            }
        }
        String readme = dev.switchboard.RepositoryDocs.text(DEPLOY.getParent()); // README.md and docs/
        assertThat(readme).as("the README labels none of Switchboard's own Secrets")
                .doesNotContainPattern("label[^\\n]*secret[^\\n]*switchboard-credentials[^\\n]*" + label);
    }

    private static void addName(Set<String> names, JsonNode ref) {
        if (ref.hasNonNull("name")) {
            names.add(ref.get("name").asText());
        }
    }

    @Test
    void theRoleGrantsWhatWatchModeNeedsInItsNamespaceOnly() throws IOException {
        Role role = one("rbac.authorization.k8s.io/v1/Role", "switchboard").as(Role.class);
        Map<String, Set<String>> granted = new LinkedHashMap<>();
        for (PolicyRule r : role.getRules()) {
            for (String g : r.getApiGroups()) {
                for (String res : r.getResources()) {
                    granted.computeIfAbsent(g + "/" + res, x -> new TreeSet<>()).addAll(r.getVerbs());
                }
            }
        }
        Map<String, Set<String>> expected = new LinkedHashMap<>();
        for (ResourceKind k : ResourceSchemas.ALL) {
            expected.put("switchboard.dev/" + k.plural(), Set.of("get", "list", "watch"));
            expected.put("switchboard.dev/" + k.plural() + "/status", Set.of("get", "update", "patch"));
        }
        expected.put("/secrets", Set.of("get", "list", "watch"));
        assertThat(granted).isEqualTo(expected);

        RoleBinding binding = one("rbac.authorization.k8s.io/v1/RoleBinding", "switchboard").as(RoleBinding.class);
        assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getKind()).isEqualTo("ServiceAccount");
            assertThat(s.getName()).isEqualTo("switchboard");
            assertThat(s.getNamespace()).isEqualTo("switchboard");
        });
    }

    // ---- helpers ----

    static List<Manifest> manifests() throws IOException {
        List<Manifest> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            // deploy/helm holds templates, not manifests: HelmChartTest renders and checks them
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") && !p.startsWith(DEPLOY.resolve("helm")))
                    .sorted().toList()) {
                if (NOT_KUBERNETES.contains(f.getFileName().toString())) {
                    continue;
                }
                int i = 0;
                for (JsonNode doc : docs(f)) {
                    out.add(new Manifest(f, ++i, doc));
                }
            }
        }
        return out;
    }

    private static Manifest one(String type, String name) throws IOException {
        List<Manifest> found = manifests().stream().filter(m -> m.type().equals(type) && m.name().equals(name)).toList();
        assertThat(found).as(type + " " + name + " in deploy/").hasSize(1);
        return found.get(0);
    }

    static Map<String, CrdSchemaValidator> validators() throws IOException {
        Map<String, CrdSchemaValidator> out = new HashMap<>();
        try (Stream<Path> files = Files.list(DEPLOY.resolve("crds"))) {
            for (Path f : files.toList()) {
                JsonNode crd = docs(f).get(0);
                out.put(crd.path("spec").path("names").path("kind").asText(), CrdSchemaValidator.of(crd));
            }
        }
        return out;
    }

    private static List<JsonNode> docs(Path file) throws IOException {
        return docs(Files.readString(file));
    }

    static List<JsonNode> docs(String text) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (JsonParser p = YAML.getFactory().createParser(text);
                MappingIterator<JsonNode> it = YAML.readValues(p, JsonNode.class)) {
            while (it.hasNextValue()) {
                JsonNode n = it.nextValue();
                if (n != null && !n.isNull() && !n.isMissingNode()) {
                    out.add(n);
                }
            }
        }
        return out;
    }

    /** A README block inside a list item is indented as a whole. */
    private static String dedent(String block) {
        int indent = block.lines().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        return block.lines().map(l -> l.length() >= indent ? l.substring(indent) : l.strip())
                .collect(Collectors.joining("\n"));
    }

    private static String projectVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>switchboard-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(DEPLOY.resolveSibling("pom.xml")));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    /** Paths of every field that landed in a model's additionalProperties, i.e. that the model does not have. */
    static void unknownFields(Object o, String path, List<String> out) throws Exception {
        if (o == null) {
            return;
        }
        if (o instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                unknownFields(l.get(i), path + "[" + i + "]", out);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                unknownFields(e.getValue(), path + "." + e.getKey(), out);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method g : o.getClass().getMethods()) {
            if (g.getParameterCount() != 0 || Modifier.isStatic(g.getModifiers()) || !g.getName().startsWith("get")
                    || g.getName().equals("getClass")) {
                continue;
            }
            Object v = g.invoke(o);
            if (g.getName().equals("getAdditionalProperties")) {
                if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    extra.keySet().forEach(k -> out.add(path + "." + k));
                }
                continue;
            }
            String field = Character.toLowerCase(g.getName().charAt(3)) + g.getName().substring(4);
            unknownFields(v, path + "." + field, out);
        }
    }
}
