package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, several replicas: two Switchboards watching one namespace compute the same conditions and write a
 * status only when it changed, so a resource's status is not rewritten back and forth as they reconcile.
 */
@ServerTest
class ReplicasDoNotFightOverStatusTest {

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    @Test
    void aStatusBothReplicasAgreeOnIsNotRewrittenWhenTheyReconcileAgain() throws Exception {
        String url = cluster.agent().url();
        cluster.apply(backend("echo", url));
        cluster.apply(backend("broken", "not-a-url"));
        cluster.start();
        TestHttp one = cluster.http();
        TestHttp two = cluster.http(cluster.startReplica());
        cluster.awaitReady("AgentBackend", "echo", "True");
        cluster.awaitReady("AgentBackend", "broken", "False");
        awaitBothReach(one, two, "echo");
        Map<String, String> before = versions("echo", "broken");

        // two more changes, each reconciled by both replicas one after the other: the reconciles of the first
        // (and any status write they would make) are over once both replicas run the second
        cluster.apply(backend("marker-one", url));
        awaitBothReach(one, two, "marker-one");
        cluster.apply(backend("marker-two", url));
        awaitBothReach(one, two, "marker-two");
        cluster.awaitReady("AgentBackend", "marker-two", "True");

        assertThat(versions("echo", "broken")).as("statuses left alone").isEqualTo(before);
    }

    private static void awaitBothReach(TestHttp one, TestHttp two, String id) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("both replicas serve " + id)
                .until(() -> one.rpc(id, Rpc.send(1, "hi")).json().has("result")
                        && two.rpc(id, Rpc.send(2, "hi")).json().has("result"));
    }

    private Map<String, String> versions(String... names) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : names) {
            out.put(n, cluster.get("AgentBackend", n).getMetadata().getResourceVersion());
        }
        return out;
    }
}
