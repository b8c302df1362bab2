package dev.switchboard.kubernetes;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.switchboard.cli.WatchMode;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fake Kubernetes cluster for the watch-mode tests, fresh for each test and closed after it: an API server
 * (fabric8's mock in CRUD mode: lists, watches, the status subresource) with the CRDs of deploy/crds applied, on a
 * Vert.x with the testkit echo agents and the fake Slack (when asked for) that its resources point at. The
 * Switchboards a test starts on it are {@link SwitchboardFixture}s in watch mode
 * ({@link SwitchboardFixture.Builder#kubernetes}), each on an ephemeral port with its store in a directory of its own.
 * Register it on a field ({@code @RegisterExtension}); the test's own {@code @BeforeEach} runs after it, so a class
 * states only the resources it starts with.
 */
final class FakeCluster implements BeforeEachCallback, AfterEachCallback {

    static final String NS = "agents";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    /** the mock server logs every request at INFO; held here so the level sticks */
    private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_LOG.setLevel(Level.WARNING);
    }

    private final List<String> agentNames;
    private FakeSlackOptions slackOptions;

    private Vertx vertx;
    private Path dir;
    private final Map<String, TestAgent> agents = new LinkedHashMap<>();
    private FakeSlack slack;
    private KubernetesMockServer server;
    private NamespacedKubernetesClient client;
    /** the Switchboard {@link #start} started (it shares {@link #client} and closes it; a replica has its own) */
    private WatchMode.Running first;
    private int replicas;
    private TestHttp http;
    /** what {@link #afterEach} closes, the last started first */
    private final Deque<Closer> closers = new ArrayDeque<>();

    private interface Closer {
        void close() throws Exception;
    }

    private FakeCluster(List<String> agentNames) {
        this.agentNames = agentNames;
    }

    /** With one testkit echo agent per name (each answers as that name). */
    static FakeCluster withAgents(String... names) {
        return new FakeCluster(List.of(names));
    }

    /** And a fake Slack started with these options. */
    FakeCluster withSlack(FakeSlackOptions options) {
        this.slackOptions = options;
        return this;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("switchboard-watch-");
        closers.push(() -> deleteTree(dir));
        vertx = Vertx.vertx();
        closers.push(() -> vertx.close().await());
        for (String name : agentNames) {
            TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo(name), 0).await();
            agents.put(name, agent);
            closers.push(() -> agent.close().await());
        }
        if (slackOptions != null) {
            slack = FakeSlack.start(vertx, slackOptions).await();
            closers.push(() -> slack.close().await());
        }
        // CRUD mode: what is created can be listed, watched, changed and deleted, as on a real API server
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        closers.push(server::destroy);
        client = server.createClient();
        closers.push(client::close);
        // the CRDs of deploy/crds, as an operator applies them (their status subresource included)
        for (String plural : KubernetesWatch.KINDS.values()) {
            try (InputStream in = Files.newInputStream(
                    Path.of("..", "deploy", "crds", plural + "." + KubernetesWatch.GROUP + ".yaml"))) {
                createOnce(() -> client.apiextensions().v1().customResourceDefinitions().load(in).create());
            }
        }
    }

    /** Closes all of it, each part even when one closed before it failed (the first failure is thrown). */
    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Exception failure = null;
        while (!closers.isEmpty()) {
            try {
                closers.pop().close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        agents.clear();
        slack = null;
        first = null;
        http = null;
        if (failure != null) {
            throw failure;
        }
    }

    Vertx vertx() {
        return vertx;
    }

    /** The only agent. */
    TestAgent agent() {
        if (agents.size() != 1) {
            throw new IllegalStateException("agent() is for one agent; this fixture has " + agents.keySet());
        }
        return agents.values().iterator().next();
    }

    TestAgent agent(String name) {
        TestAgent agent = agents.get(name);
        if (agent == null) {
            throw new IllegalArgumentException("no agent named '" + name + "'; this fixture has " + agents.keySet());
        }
        return agent;
    }

    FakeSlack slack() {
        if (slack == null) {
            throw new IllegalStateException("no fake Slack: register the fixture withSlack(...)");
        }
        return slack;
    }

    /** The Server resource of the Switchboard {@link #start} starts: loopback, port 0, its store in the cluster's. */
    String serverFile() {
        return serverFile(dir);
    }

    private static String serverFile(Path dir) {
        return """
                apiVersion: switchboard.dev/v1
                kind: Server
                metadata: {name: switchboard}
                spec:
                  listen: 127.0.0.1:0
                  store: sqlite:%s
                """.formatted(dir.resolve("switchboard.db"));
    }

    /** A Switchboard in watch mode on namespace {@link #NS} through {@code client}: started, not yet following. */
    SwitchboardFixture.Builder switchboard(String serverFile, KubernetesClient client) {
        return SwitchboardFixture.builder().vertx(vertx).yaml(serverFile).kubernetes(client, NS);
    }

    /** Starts Switchboard in watch mode on this cluster, following its changes, as {@code serve --kubernetes} does. */
    WatchMode.Running start() {
        return startNotFollowing().follow();
    }

    /** As {@link #start()}, on a Server resource of the test's own ({@link #serverFile()} changed: listen, keys). */
    WatchMode.Running start(String serverFile) {
        if (first != null) {
            throw new IllegalStateException("already started: a second Switchboard is startReplica()");
        }
        first = started(switchboard(serverFile, client).start());
        return first.follow();
    }

    /** Started on the first list, not yet following (so /readyz still waits). */
    WatchMode.Running startNotFollowing() {
        if (first != null) {
            throw new IllegalStateException("already started: a second Switchboard is startReplica()");
        }
        first = started(switchboard(serverFile(), client).start());
        return first;
    }

    /** Another Switchboard on the same namespace, following it, with a client and a store of its own. */
    WatchMode.Running startReplica() throws IOException {
        Path own = Files.createDirectories(dir.resolve("replica-" + ++replicas));
        return started(switchboard(serverFile(own), server.createClient()).start()).follow();
    }

    private WatchMode.Running started(SwitchboardFixture switchboard) {
        closers.push(switchboard::close);
        return switchboard.watch();
    }

    /** The HTTP client on the Switchboard started first (the same one each time), closed after the test. */
    TestHttp http() {
        if (first == null) {
            throw new IllegalStateException("start() Switchboard before calling it");
        }
        if (http == null) {
            http = http(first);
        }
        return http;
    }

    /** An HTTP client on {@code switchboard}, closed after the test. */
    TestHttp http(WatchMode.Running switchboard) {
        TestHttp client = new TestHttp(vertx, switchboard.app().baseUrl());
        closers.push(client::close);
        return client;
    }

    /** Creates the resource written in YAML (kind, metadata.name, spec), or changes its spec when it exists. */
    void apply(String yaml) {
        JsonNode node;
        try {
            node = YAML.readTree(yaml);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
        String kind = node.path("kind").asText();
        String name = node.path("metadata").path("name").asText();
        Object spec = JSON.convertValue(node.path("spec"), Object.class);
        var resources = resources(kind);
        if (resources.withName(name).get() == null) {
            GenericKubernetesResource r = client.getKubernetesSerialization().unmarshal(
                    JSON.valueToTree(node).toString(), GenericKubernetesResource.class);
            r.getMetadata().setNamespace(NS);
            createOnce(() -> resources.resource(r).create());
        } else {
            resources.withName(name).edit(r -> {
                r.setAdditionalProperty("spec", spec);
                return r;
            });
        }
    }

    void delete(String kind, String name) {
        resources(kind).withName(name).delete();
    }

    /** Creates or replaces a Secret with one key, without labels: as Switchboard's own credentials are. */
    void secret(String name, String key, String value) {
        secret(name, key, value, Map.of());
    }

    /**
     * Creates or replaces a Secret with one key that AgentBackends and Bindings may name: it carries the opt-in label
     * {@code switchboard.dev/usable-by-backends: "true"}.
     */
    void backendSecret(String name, String key, String value) {
        secret(name, key, value, Map.of("switchboard.dev/usable-by-backends", "true"));
    }

    /** Creates or replaces a Secret with one key and exactly these labels. */
    void secret(String name, String key, String value, Map<String, String> labels) {
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .withLabels(labels).endMetadata()
                .withData(Map.of(key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))))
                .build()).createOr(NonDeletingOperation::update);
    }

    /** The resource as the API server has it now, or null. */
    GenericKubernetesResource get(String kind, String name) {
        return resources(kind).withName(name).get();
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> resources(String kind) {
        return client.genericKubernetesResources(KubernetesWatch.context(kind, KubernetesWatch.KINDS.get(kind)))
                .inNamespace(NS);
    }

    /** The resource's Ready condition now, or a missing node. */
    JsonNode ready(String kind, String name) {
        GenericKubernetesResource r = get(kind, name);
        if (r == null) {
            return JSON.missingNode();
        }
        JsonNode status = JSON.valueToTree(r.getAdditionalProperties().getOrDefault("status", Map.of()));
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                return c;
            }
        }
        return JSON.missingNode();
    }

    /** Waits until the resource's Ready condition has {@code status} ("True" or "False"), and returns it. */
    JsonNode awaitReady(String kind, String name, String status) {
        AtomicReference<JsonNode> seen = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .alias(kind + " " + name + " Ready=" + status)
                .until(() -> {
                    JsonNode c = ready(kind, name);
                    seen.set(c);
                    return status.equals(c.path("status").asText());
                });
        return seen.get();
    }

    /** An AgentBackend at {@code url}. */
    static String backend(String name, String url) {
        return """
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: %s}
                spec:
                  url: %s
                """.formatted(name, url);
    }

    /** A Binding of {@code backend} to the web chat channel named like it, for user alice. */
    static String webBinding(String name, String backend) {
        return """
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: %1$s}
                spec:
                  backendRef: {name: %2$s}
                  chat: {platform: web, channels: [%1$s]}
                  identity: {userId: alice}
                """.formatted(name, backend);
    }

    /**
     * fabric8 sends a request again after an IOException (a reply too slow on a loaded machine), a POST included: then
     * the first attempt may have landed and the second answers 409. The server is fresh and {@link #apply} looks
     * first, so a conflict here is that first attempt.
     */
    private static void createOnce(Runnable create) {
        try {
            create.run();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
