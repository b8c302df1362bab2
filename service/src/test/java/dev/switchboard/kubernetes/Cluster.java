package dev.switchboard.kubernetes;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.switchboard.cli.WatchMode;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.SwitchboardConfig;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An API server (fabric8's mock in CRUD mode: lists, watches, the status subresource) with Switchboard's four kinds
 * known, and a Switchboard in watch mode on it, on an ephemeral port.
 */
final class Cluster implements AutoCloseable {

    static final String NS = "agents";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    /** the mock server logs every request at INFO; held here so the level sticks */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    /** CRUD mode: what is created can be listed, watched, changed and deleted, as on a real API server */
    final KubernetesMockServer server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(),
            new io.fabric8.mockwebserver.MockWebServer(), new java.util.HashMap<>(),
            new io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher(), false);
    final NamespacedKubernetesClient client;
    private WatchMode.Running running;

    Cluster() {
        server.init();
        client = server.createClient();
        // the CRDs of deploy/crds, as an operator applies them (their status subresource included)
        KubernetesWatch.KINDS.forEach((kind, plural) -> {
            Path crd = Path.of("..", "deploy", "crds", plural + "." + KubernetesWatch.GROUP + ".yaml");
            try (java.io.InputStream in = java.nio.file.Files.newInputStream(crd)) {
                client.apiextensions().v1().customResourceDefinitions().load(in).create();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** A Server resource on loopback, port 0, its store in {@code dir}. */
    static SwitchboardConfig serverFile(Path dir) {
        return new ConfigLoader(Map.of()).parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                metadata: {name: switchboard}
                spec:
                  listen: 127.0.0.1:0
                  store: sqlite:%s
                """.formatted(dir.resolve("switchboard.db")), "server.yaml");
    }

    /** Starts Switchboard in watch mode on this cluster, following its changes, as {@code serve --kubernetes} does. */
    WatchMode.Running start(Vertx vertx, Path dir) {
        return startNotFollowing(vertx, dir).follow();
    }

    /** Started on the first list, not yet following (so /readyz still waits). */
    WatchMode.Running startNotFollowing(Vertx vertx, Path dir) {
        running = WatchMode.start(vertx, serverFile(dir), client, NS, Duration.ofSeconds(60));
        return running;
    }

    /** Creates the resource written in YAML (kind, metadata.name, spec), or changes its spec when it exists. */
    void apply(String yaml) {
        JsonNode node;
        try {
            node = YAML.readTree(yaml);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
        String kind = node.path("kind").asText();
        String name = node.path("metadata").path("name").asText();
        Object spec = JSON.convertValue(node.path("spec"), Object.class);
        var resources = client.genericKubernetesResources(KubernetesWatch.context(kind, KubernetesWatch.KINDS.get(kind)))
                .inNamespace(NS);
        if (resources.withName(name).get() == null) {
            GenericKubernetesResource r = client.getKubernetesSerialization().unmarshal(
                    JSON.valueToTree(node).toString(), GenericKubernetesResource.class);
            r.getMetadata().setNamespace(NS);
            resources.resource(r).create();
        } else {
            resources.withName(name).edit(r -> {
                r.setAdditionalProperty("spec", spec);
                return r;
            });
        }
    }

    void delete(String kind, String name) {
        client.genericKubernetesResources(KubernetesWatch.context(kind, KubernetesWatch.KINDS.get(kind)))
                .inNamespace(NS).withName(name).delete();
    }

    /** Creates or replaces a Secret with one key. */
    void secret(String name, String key, String value) {
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .endMetadata().withData(Map.of(key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))))
                .build()).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
    }

    /** The resource's Ready condition now, or a missing node. */
    JsonNode ready(String kind, String name) {
        GenericKubernetesResource r = client.genericKubernetesResources(
                KubernetesWatch.context(kind, KubernetesWatch.KINDS.get(kind))).inNamespace(NS).withName(name).get();
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

    @Override
    public void close() {
        if (running != null) {
            running.close().await();
        } else {
            client.close();
        }
        server.destroy();
    }
}
