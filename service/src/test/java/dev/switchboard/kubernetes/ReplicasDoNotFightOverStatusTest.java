package dev.switchboard.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.cli.WatchMode;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watch mode, several replicas: two Switchboards watching one namespace compute the same conditions and write a
 * status only when it changed, so a resource's status is not rewritten back and forth as they reconcile.
 */
class ReplicasDoNotFightOverStatusTest {

    @TempDir
    Path dir;

    @Test
    void aStatusBothReplicasAgreeOnIsNotRewrittenWhenTheyReconcileAgain() throws Exception {
        Vertx vertx = Vertx.vertx();
        TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        Cluster cluster = new Cluster();
        WatchMode.Running second = null;
        try {
            cluster.apply(backend("echo", agent.url()));
            cluster.apply(backend("broken", "not-a-url"));
            WatchMode.Running first = cluster.start(vertx, Files.createDirectories(dir.resolve("one")));
            second = WatchMode.start(vertx, Cluster.serverFile(Files.createDirectories(dir.resolve("two"))),
                    cluster.server.createClient(), Cluster.NS, Duration.ofSeconds(60)).follow();
            cluster.awaitReady("AgentBackend", "echo", "True");
            cluster.awaitReady("AgentBackend", "broken", "False");
            TestHttp one = new TestHttp(vertx, first.app().baseUrl());
            TestHttp two = new TestHttp(vertx, second.app().baseUrl());
            awaitBothReach(one, two, "echo");
            Map<String, String> before = versions(cluster, "echo", "broken");

            // two more changes, each reconciled by both replicas one after the other: the reconciles of the first
            // (and any status write they would make) are over once both replicas run the second
            cluster.apply(backend("marker-one", agent.url()));
            awaitBothReach(one, two, "marker-one");
            cluster.apply(backend("marker-two", agent.url()));
            awaitBothReach(one, two, "marker-two");
            cluster.awaitReady("AgentBackend", "marker-two", "True");

            assertThat(versions(cluster, "echo", "broken")).as("statuses left alone").isEqualTo(before);
            one.close();
            two.close();
        } finally {
            if (second != null) {
                second.close().await();
            }
            cluster.close();
            agent.close().await();
            vertx.close().await();
        }
    }

    private static void awaitBothReach(TestHttp one, TestHttp two, String id) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("both replicas serve " + id)
                .until(() -> one.rpc(id, Rpc.send(1, "hi")).json().has("result")
                        && two.rpc(id, Rpc.send(2, "hi")).json().has("result"));
    }

    private static Map<String, String> versions(Cluster cluster, String... names) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : names) {
            GenericKubernetesResource r = cluster.client.genericKubernetesResources(
                    KubernetesWatch.context("AgentBackend", "agentbackends")).inNamespace(Cluster.NS).withName(n).get();
            out.put(n, r.getMetadata().getResourceVersion());
        }
        return out;
    }

    private static String backend(String name, String url) {
        return """
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: %s}
                spec:
                  url: %s
                """.formatted(name, url);
    }
}
