package dev.switchboard.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.CrdGenerator;
import dev.switchboard.config.CrdSchemaValidator;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * deploy/helm/switchboard rendered for a matrix of values cases with {@link GoTemplate} (no helm binary here: not
 * in Debian, not in npm, and no Java library renders Go templates), and every rendered object checked: the built-in
 * kinds parse into fabric8's typed models with no field the model does not have, the custom resources pass our CRD
 * schemas, and the objects hold together (selectors, ports, Secrets, the Server config the loader reads, the RBAC of
 * watch mode, the locked-down security context). deploy/helm/switchboard-crds holds deploy/crds/ byte for byte.
 */
class HelmChartTest {

    static final Path CHART = Path.of("..", "deploy", "helm", "switchboard");
    static final Path CRD_CHART = Path.of("..", "deploy", "helm", "switchboard-crds", "templates");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String RELEASE = "sb";
    private static final String NAMESPACE = "agents";
    private static final Map<String, Class<?>> TYPED = Map.of(
            "v1/ServiceAccount", ServiceAccount.class,
            "v1/ConfigMap", ConfigMap.class,
            "v1/Service", Service.class,
            "apps/v1/Deployment", Deployment.class,
            "rbac.authorization.k8s.io/v1/Role", Role.class,
            "rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class,
            "networking.k8s.io/v1/Ingress", Ingress.class,
            "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
            "gateway.networking.k8s.io/v1/HTTPRoute", HTTPRoute.class);
    /** No fabric8 model (the Prometheus operator's kind): checked field by field below. */
    private static final String SERVICE_MONITOR = "monitoring.coreos.com/v1/ServiceMonitor";
    private static final String CUSTOM = "switchboard.dev/v1/";

    record Case(String name, String values) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("defaults", ""),
                new Case("postgresql, three replicas, a PDB", """
                        replicas: 3
                        store: {postgresql: {enabled: true, secretName: pg, urlKey: url, passwordKey: password}}
                        podDisruptionBudget: {enabled: true, minAvailable: 2}
                        """),
                new Case("postgresql, password in the environment elsewhere", """
                        replicas: 2
                        store: {postgresql: {enabled: true, passwordKey: ""}}
                        """),
                new Case("ingress, HTTPRoute, ServiceMonitor", """
                        ingress: {enabled: true, className: nginx, host: sb.example.org, tlsSecretName: sb-tls}
                        httpRoute: {enabled: true, gatewayName: public, gatewayNamespace: gateways, hostname: sb.example.org}
                        serviceMonitor: {enabled: true, interval: 15s}
                        service: {port: 80}
                        """),
                new Case("file mode, agents in config.extra, a claim for /data", """
                        watch: {enabled: false}
                        data: {persistentVolumeClaim: sb-data}
                        nodeSelector: {kubernetes.io/os: linux}
                        tolerations: [{key: dedicated, operator: Equal, value: agents, effect: NoSchedule}]
                        resources: {requests: {cpu: 250m, memory: 512Mi}, limits: {memory: 1Gi}}
                        config:
                          serverExtra: |
                            registrationTtl: 120s
                          extra: |
                            apiVersion: switchboard.dev/v1
                            kind: AgentBackend
                            metadata: {name: echo}
                            spec: {url: "http://echo.agents.svc:9000/"}
                        """),
                new Case("Slack apps", """
                        slackApps:
                          - {name: acme, mode: socket, secretName: acme-slack}
                          - {name: beta, secretName: beta-slack}
                        image: {repository: registry.example.org/switchboard, tag: "1.2.3", pullPolicy: Always}
                        """));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyRenderedObjectPassesItsSchemaAndTheObjectsHoldTogether(Case c) throws Exception {
        Map<String, Object> values = values(c.values());
        assertThat(valuesSchemaErrors(values)).as(c + ": values.schema.json, which Helm checks first").isEmpty();
        List<JsonNode> objects = render(values);
        Map<String, JsonNode> byType = new TreeMap<>();
        for (JsonNode o : objects) {
            String type = o.path("apiVersion").asText() + "/" + o.path("kind").asText();
            String name = o.path("metadata").path("name").asText();
            assertThat(name).as(type + ": metadata.name").isNotBlank();
            assertThat(o.path("metadata").path("namespace").asText()).as(type + " " + name).isEqualTo(NAMESPACE);
            assertThat(o.path("metadata").path("labels").path("app.kubernetes.io/instance").asText())
                    .as(type + " " + name + " labels").isEqualTo(RELEASE);
            assertThat(byType.put(type + "/" + name, o)).as("one " + type + " " + name).isNull();
            Class<?> model = TYPED.get(type);
            if (model != null) {
                List<String> unknown = new ArrayList<>();
                DeployManifestsTest.unknownFields(asModel(o, model), "", unknown);
                assertThat(unknown).as(c + ": " + type + " fields its model does not have").isEmpty();
            } else if (type.startsWith(CUSTOM)) {
                CrdSchemaValidator v = DeployManifestsTest.validators().get(o.path("kind").asText());
                assertThat(v).as(type + ": a CRD in deploy/crds").isNotNull();
                assertThat(v.errors(o)).as(c + ": " + type + " " + name + " against its CRD").isEmpty();
            } else {
                assertThat(type).as(c + ": a kind this test checks").isEqualTo(SERVICE_MONITOR);
            }
        }
        Chart chart = new Chart(c, values, byType);
        chart.deploymentRunsTheImageLockedDown();
        chart.serverConfigLoadsWithTheContainersEnvironment();
        chart.selectorsAndPortsMeet();
        chart.watchModeHasItsRbacAndFileModeNone();
        chart.optionalObjectsFollowTheirValues();
    }

    @Test
    void valuesTheChartCannotHonourAreRefusedWithAReason() {
        assertThatThrownBy(() -> render(values("replicas: 2\n")))
                .isInstanceOf(GoTemplate.ChartFailed.class).hasMessageContaining("store.postgresql.enabled");
        assertThatThrownBy(() -> render(values("watch: {enabled: false}\nslackApps: [{name: a, secretName: s}]\n")))
                .isInstanceOf(GoTemplate.ChartFailed.class).hasMessageContaining("watch.enabled");
    }

    @Test
    void valuesHelmWouldRefuseAreRefusedByTheValuesSchema() throws IOException {
        assertThat(valuesSchemaErrors(values("replicas: three\n"))).isNotEmpty();
        assertThat(valuesSchemaErrors(values("replica: 3\n"))).as("a misspelt key").isNotEmpty();
        assertThat(valuesSchemaErrors(values("securityContext: {readOnlyRootFilesystem: false, allowPrivilegeEscalation: false}\n")))
                .as("the read-only root is not optional").isNotEmpty();
        assertThat(valuesSchemaErrors(values("slackApps: [{name: Acme, secretName: s}]\n"))).as("a resource name").isNotEmpty();
        assertThat(valuesSchemaErrors(values("httpRoute: {enabled: true}\n"))).as("an HTTPRoute needs its Gateway").isNotEmpty();
        assertThat(valuesSchemaErrors(values(""))).isEmpty();
    }

    /** What the chart's values.schema.json (draft 7, as Helm reads it) says of {@code values}. */
    private static List<String> valuesSchemaErrors(Map<String, Object> values) throws IOException {
        com.networknt.schema.Schema schema = com.networknt.schema.SchemaRegistry
                .withDefaultDialect(com.networknt.schema.SpecificationVersion.DRAFT_7)
                .getSchema(Files.readString(CHART.resolve("values.schema.json")), com.networknt.schema.InputFormat.JSON);
        return schema.validate(new ObjectMapper().writeValueAsString(values), com.networknt.schema.InputFormat.JSON)
                .stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
    }

    @Test
    void aValuesPathThatIsNotSetIsAnErrorNotAnEmptyField() {
        GoTemplate t = new GoTemplate();
        t.add("t.yaml", "name: {{ .Values.nmae }}\n");
        assertThatThrownBy(() -> t.render("t.yaml", Map.of("Values", Map.of("name", "x"))))
                .hasMessageContaining("not set");
        assertThatThrownBy(() -> t.add("u.yaml", "{{- with .Values }}x{{ end }}"))
                .hasMessageContaining("outside the subset");
        assertThatThrownBy(() -> t.render("u.yaml", Map.of())).hasMessageContaining("no template named");
    }

    @Test
    void theRendererKeepsGoTemplatesWhitespaceRules() {
        GoTemplate t = new GoTemplate();
        t.add("_h.tpl", "{{- define \"l\" -}}\na: 1\nb: {{ .x | quote }}\n{{- end }}\n");
        t.add("t.yaml", "m:\n  labels:\n    {{- include \"l\" . | nindent 4 }}\n  {{- if .y }}\n  y: {{ .y }}\n  {{- else }}\n"
                + "  y: none\n  {{- end }}\n{{- range .l }}\n- {{ . }}\n{{- end }}\n");
        assertThat(t.render("t.yaml", Map.of("x", "q\"", "y", 0, "l", List.of(1, 2))))
                .isEqualTo("m:\n  labels:\n    a: 1\n    b: \"q\\\"\"\n  y: none\n- 1\n- 2\n");
    }

    @Test
    void theCrdChartHoldsDeployCrdsAsGenerated() throws IOException {
        Map<String, String> expected = CrdGenerator.files();
        Map<String, String> actual = new TreeMap<>();
        try (Stream<Path> files = Files.list(CRD_CHART)) {
            for (Path p : files.sorted().toList()) {
                actual.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        assertThat(actual).as("deploy/helm/switchboard-crds/templates differs from what ResourceSchemas generates; "
                + "regenerate with: " + CrdGenerator.REGENERATE).isEqualTo(new TreeMap<>(expected));
        for (String body : actual.values()) {
            assertThat(body).as("a CRD file is plain YAML, not a template").doesNotContain("{{");
        }
    }

    /** The rendered objects of one case, and what they must agree on. */
    private record Chart(Case c, Map<String, Object> values, Map<String, JsonNode> objects) {

        JsonNode one(String type) {
            List<JsonNode> found = objects.entrySet().stream().filter(e -> e.getKey().startsWith(type + "/"))
                    .map(Map.Entry::getValue).toList();
            assertThat(found).as(c + ": one " + type).hasSize(1);
            return found.get(0);
        }

        boolean has(String type) {
            return objects.keySet().stream().anyMatch(k -> k.startsWith(type + "/"));
        }

        Object value(String path) {
            Object v = values;
            for (String p : path.split("\\.")) {
                v = ((Map<?, ?>) v).get(p);
            }
            return v;
        }

        Deployment deployment() {
            return asModel(one("apps/v1/Deployment"), Deployment.class);
        }

        void deploymentRunsTheImageLockedDown() {
            Deployment d = deployment();
            PodSpec pod = d.getSpec().getTemplate().getSpec();
            assertThat(d.getSpec().getReplicas()).isEqualTo(value("replicas"));
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(c + " runAsNonRoot").isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).as(c + " the image's user").isEqualTo(65532L);
            assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            assertThat(pod.getServiceAccountName()).isEqualTo(one("v1/ServiceAccount").path("metadata").path("name").asText());
            Container ctr = pod.getContainers().get(0);
            String tag = (String) value("image.tag");
            assertThat(ctr.getImage()).isEqualTo(value("image.repository") + ":" + (tag.isEmpty() ? "0.1.0-SNAPSHOT" : tag));
            assertThat(ctr.getSecurityContext().getReadOnlyRootFilesystem()).as(c + " read-only root").isTrue();
            assertThat(ctr.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
            assertThat(ctr.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
            assertThat(ctr.getResources().getLimits()).containsKey("memory");
            assertThat(ctr.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
            assertThat(ctr.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
            Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
            for (VolumeMount vm : ctr.getVolumeMounts()) {
                Volume v = volumes.get(vm.getName());
                assertThat(v).as(c + " volume " + vm.getName()).isNotNull();
                if (!Boolean.TRUE.equals(vm.getReadOnly())) {
                    assertThat(v.getEmptyDir() != null || v.getPersistentVolumeClaim() != null)
                            .as(c + ": writable " + vm.getMountPath() + " is an emptyDir or a claim").isTrue();
                }
            }
            assertThat(ctr.getVolumeMounts()).extracting(VolumeMount::getMountPath).contains("/tmp", "/data", "/etc/switchboard");
            boolean postgres = Boolean.TRUE.equals(value("store.postgresql.enabled"));
            assertThat(d.getSpec().getStrategy().getType()).as(c + " strategy").isEqualTo(postgres ? "RollingUpdate" : "Recreate");
        }

        void serverConfigLoadsWithTheContainersEnvironment() throws IOException {
            PodSpec pod = deployment().getSpec().getTemplate().getSpec();
            Container ctr = pod.getContainers().get(0);
            String configMap = pod.getVolumes().stream().filter(v -> v.getName().equals("config")).findFirst()
                    .orElseThrow().getConfigMap().getName();
            JsonNode cm = objects.get("v1/ConfigMap/" + configMap);
            assertThat(cm).as(c + ": the ConfigMap the pod mounts").isNotNull();
            String file = cm.path("data").path("switchboard.yaml").asText();
            Set<String> vars = new TreeSet<>();
            Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)").matcher(file).results().forEach(r -> vars.add(r.group(1)));
            Map<String, EnvVar> env = ctr.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
            assertThat(env.keySet()).as(c + ": the container's environment fills the config's ${VAR}s").containsAll(vars);
            Map<String, String> filled = new HashMap<>();
            for (String v : vars) {
                filled.put(v, v.equals("SWITCHBOARD_STORE_URL")
                        ? "postgresql://db.example:5432/switchboard?user=switchboard" : "a-value-of-sixteen-or-more");
            }
            SwitchboardConfig loaded = new ConfigLoader(filled).parse(file, c + " ConfigMap");
            ServerSpec server = loaded.server();
            assertThat(server.port()).isEqualTo(ctr.getPorts().get(0).getContainerPort());
            assertThat(server.host()).isEqualTo("0.0.0.0");
            boolean postgres = Boolean.TRUE.equals(value("store.postgresql.enabled"));
            assertThat(server.store()).as(c + " store").startsWith(postgres ? "postgresql://" : "sqlite:/data/");
            if (postgres) {
                var url = env.get("SWITCHBOARD_STORE_URL").getValueFrom().getSecretKeyRef();
                assertThat(url.getName()).isEqualTo(value("store.postgresql.secretName"));
                assertThat(env.containsKey("PGPASSWORD")).as(c + " PGPASSWORD from the Secret")
                        .isEqualTo(!((String) value("store.postgresql.passwordKey")).isEmpty());
            }
            if (!Boolean.TRUE.equals(value("watch.enabled"))) {
                assertThat(loaded.backends()).as(c + ": config.extra's agents").extracting(b -> b.name()).contains("echo");
            }
        }

        void selectorsAndPortsMeet() {
            Deployment d = deployment();
            Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
            assertThat(podLabels).containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
            Service svc = asModel(one("v1/Service"), Service.class);
            assertThat(podLabels).as(c + ": the Service selects the pods").containsAllEntriesOf(svc.getSpec().getSelector());
            String portName = d.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).getName();
            assertThat(svc.getSpec().getPorts()).singleElement().satisfies(p -> {
                assertThat(p.getTargetPort().getStrVal()).isEqualTo(portName);
                assertThat(p.getPort()).isEqualTo(value("service.port"));
            });
            String svcName = svc.getMetadata().getName();
            if (has("policy/v1/PodDisruptionBudget")) {
                PodDisruptionBudget pdb = asModel(one("policy/v1/PodDisruptionBudget"), PodDisruptionBudget.class);
                assertThat(podLabels).containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
                assertThat(pdb.getSpec().getMinAvailable().getIntVal()).as(c + ": a PDB leaves a pod to evict")
                        .isLessThan(d.getSpec().getReplicas());
            }
            if (has("networking.k8s.io/v1/Ingress")) {
                Ingress in = asModel(one("networking.k8s.io/v1/Ingress"), Ingress.class);
                var backend = in.getSpec().getRules().get(0).getHttp().getPaths().get(0).getBackend().getService();
                assertThat(backend.getName()).isEqualTo(svcName);
                assertThat(backend.getPort().getName()).isEqualTo(svc.getSpec().getPorts().get(0).getName());
            }
            if (has("gateway.networking.k8s.io/v1/HTTPRoute")) {
                HTTPRoute r = asModel(one("gateway.networking.k8s.io/v1/HTTPRoute"), HTTPRoute.class);
                var ref = r.getSpec().getRules().get(0).getBackendRefs().get(0);
                assertThat(ref.getName()).isEqualTo(svcName);
                assertThat(ref.getPort()).isEqualTo(svc.getSpec().getPorts().get(0).getPort());
                assertThat(r.getSpec().getParentRefs().get(0).getName()).isEqualTo(value("httpRoute.gatewayName"));
            }
            if (has(SERVICE_MONITOR)) {
                JsonNode sm = one(SERVICE_MONITOR);
                assertThat(fieldNames(sm.path("spec"))).as(c + " ServiceMonitor spec").containsOnly("selector", "endpoints");
                Map<String, String> selects = YAML.convertValue(sm.path("spec").path("selector").path("matchLabels"),
                        new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() {});
                assertThat(svc.getMetadata().getLabels()).as(c + ": the ServiceMonitor selects the Service")
                        .containsAllEntriesOf(selects);
                JsonNode ep = sm.path("spec").path("endpoints").get(0);
                assertThat(fieldNames(ep)).containsOnly("port", "path", "interval", "authorization");
                assertThat(ep.path("port").asText()).isEqualTo(svc.getSpec().getPorts().get(0).getName());
                assertThat(ep.path("path").asText()).isEqualTo("/metrics");
                assertThat(ep.path("interval").asText()).matches("\\d+[smh]");
                // beyond loopback /metrics needs the admin token: the scrape sends it from the credentials Secret
                assertThat(ep.path("authorization").path("type").asText()).isEqualTo("Bearer");
                assertThat(ep.path("authorization").path("credentials").path("name").asText()).isEqualTo(value("credentialsSecret"));
                assertThat(ep.path("authorization").path("credentials").path("key").asText()).isEqualTo("admin-token");
            }
        }

        void watchModeHasItsRbacAndFileModeNone() throws IOException {
            boolean watch = Boolean.TRUE.equals(value("watch.enabled"));
            List<String> args = deployment().getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
            assertThat(args.contains("--kubernetes")).as(c + " args " + args).isEqualTo(watch);
            assertThat(has("rbac.authorization.k8s.io/v1/Role")).as(c + ": a Role only in watch mode").isEqualTo(watch);
            if (watch) {
                Role role = asModel(one("rbac.authorization.k8s.io/v1/Role"), Role.class);
                JsonNode manifest = DeployManifestsTest.manifests().stream()
                        .filter(m -> m.type().equals("rbac.authorization.k8s.io/v1/Role")).findFirst().orElseThrow().node();
                assertThat(role.getRules()).as(c + ": the rules of deploy/rbac.yaml, which DeployManifestsTest checks")
                        .isEqualTo(asModel(manifest, Role.class).getRules());
                RoleBinding rb = asModel(one("rbac.authorization.k8s.io/v1/RoleBinding"), RoleBinding.class);
                assertThat(rb.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
                assertThat(rb.getSubjects()).singleElement().satisfies(s -> {
                    assertThat(s.getName()).isEqualTo(deployment().getSpec().getTemplate().getSpec().getServiceAccountName());
                    assertThat(s.getNamespace()).isEqualTo(NAMESPACE);
                });
            }
        }

        void optionalObjectsFollowTheirValues() {
            assertThat(has("networking.k8s.io/v1/Ingress")).isEqualTo(value("ingress.enabled"));
            assertThat(has("gateway.networking.k8s.io/v1/HTTPRoute")).isEqualTo(value("httpRoute.enabled"));
            assertThat(has(SERVICE_MONITOR)).isEqualTo(value("serviceMonitor.enabled"));
            assertThat(has("policy/v1/PodDisruptionBudget")).isEqualTo(value("podDisruptionBudget.enabled"));
            List<?> slack = (List<?>) value("slackApps");
            long rendered = objects.keySet().stream().filter(k -> k.startsWith(CUSTOM + "SlackApp/")).count();
            assertThat(rendered).as(c + " SlackApps").isEqualTo(slack.size());
            for (Object o : slack) {
                Map<?, ?> app = (Map<?, ?>) o;
                JsonNode spec = objects.get(CUSTOM + "SlackApp/" + app.get("name")).path("spec");
                boolean socket = "socket".equals(app.get("mode"));
                assertThat(spec.has(socket ? "appToken" : "signingSecret")).as(c + " " + app).isTrue();
                assertThat(spec.path("botToken").path("secretRef").path("name").asText()).isEqualTo(app.get("secretName"));
            }
        }
    }

    // ---- rendering ----

    static Map<String, Object> values(String overrides) throws IOException {
        Map<String, Object> values = map(Files.readString(CHART.resolve("values.yaml")));
        merge(values, overrides.isBlank() ? Map.of() : map(overrides));
        return values;
    }

    /** helm template --namespace agents sb deploy/helm/switchboard -f case.yaml, for the subset GoTemplate renders. */
    static List<JsonNode> render(Map<String, Object> values) throws IOException {
        Map<String, Object> chartYaml = map(Files.readString(CHART.resolve("Chart.yaml")));
        Map<String, Object> chart = new LinkedHashMap<>();
        chartYaml.forEach((k, v) -> chart.put(Character.toUpperCase(k.charAt(0)) + k.substring(1), v));
        Map<String, Object> root = Map.of("Values", values, "Chart", chart,
                "Release", Map.of("Name", RELEASE, "Namespace", NAMESPACE, "Service", "Helm"));
        GoTemplate t = new GoTemplate();
        List<String> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(CHART.resolve("templates"))) {
            for (Path p : s.sorted().toList()) {
                String name = p.getFileName().toString();
                t.add(name, Files.readString(p));
                if (name.endsWith(".yaml")) {
                    files.add(name);
                }
            }
        }
        List<JsonNode> out = new ArrayList<>();
        for (String f : files) {
            String text = t.render(f, root);
            try {
                out.addAll(DeployManifestsTest.docs(text));
            } catch (IOException | RuntimeException e) {
                throw new AssertionError(f + " rendered YAML that does not parse: " + e.getMessage() + "\n" + text, e);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(String yaml) throws IOException {
        return YAML.readValue(yaml, LinkedHashMap.class);
    }

    /** Helm's merge of -f values over the chart's: maps merge key by key, anything else replaces. */
    @SuppressWarnings("unchecked")
    private static void merge(Map<String, Object> into, Map<String, Object> over) {
        for (Map.Entry<String, Object> e : over.entrySet()) {
            if (e.getValue() instanceof Map<?, ?> m && into.get(e.getKey()) instanceof Map<?, ?> base) {
                Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) base);
                merge(copy, (Map<String, Object>) m);
                into.put(e.getKey(), copy);
            } else {
                into.put(e.getKey(), e.getValue());
            }
        }
    }

    private static <T> T asModel(JsonNode node, Class<T> type) {
        return new DeployManifestsTest.Manifest(CHART, 0, node).as(type);
    }

    private static Set<String> fieldNames(JsonNode n) {
        Set<String> out = new TreeSet<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
