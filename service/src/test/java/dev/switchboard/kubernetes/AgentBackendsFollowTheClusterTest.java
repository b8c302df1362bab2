package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, agents: an AgentBackend created in the cluster is reachable through the gateway; a changed url sends
 * the next call to the new agent; a deleted one is an unknown agent. No restart between.
 */
@ServerTest
class AgentBackendsFollowTheClusterTest {

    /** the gateway's JSON-RPC error for an agent id it does not know */
    private static final int AGENT_NOT_FOUND = -32002;

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("first", "second");

    @Test
    void createdChangedAndDeletedAgentBackendsTakeEffectWithoutARestart() {
        TestAgent first = cluster.agent("first");
        TestAgent second = cluster.agent("second");
        cluster.start();
        TestHttp http = cluster.http();
        assertThat(http.rpc("echo", Rpc.send(1, "before")).errorCode()).isEqualTo(AGENT_NOT_FOUND);

        cluster.apply(backend("echo", first.url()));
        JsonNode ready = cluster.awaitReady("AgentBackend", "echo", "True");
        assertThat(ready.path("reason").asText()).isEqualTo("Applied");
        awaitReached(http, "echo", first);

        cluster.apply(backend("echo", second.url()));
        awaitReached(http, "echo", second);
        first.recorder().clear();
        second.recorder().clear();
        assertThat(http.rpc("echo", Rpc.send(3, "again")).json().has("result")).isTrue();
        assertThat(second.recorder().rpcRequests()).hasSize(1);
        assertThat(first.recorder().rpcRequests()).as("the old url is not called after the change").isEmpty();

        cluster.delete("AgentBackend", "echo");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("echo becomes unknown")
                .until(() -> {
                    // the agent answers a result until the delete is seen: not an error yet, so keep waiting
                    JsonNode error = http.rpc("echo", Rpc.send(3, "gone?")).json().path("error");
                    return error.isObject() && error.path("code").asInt() == AGENT_NOT_FOUND;
                });
        Reply gone = http.rpc("echo", Rpc.send(4, "gone?"));
        assertThat(gone.errorMessage()).contains("agent not found: echo");
    }

    @Test
    void theReadyConditionCarriesTheGenerationItDescribes() {
        cluster.start();
        cluster.apply(backend("echo", cluster.agent("first").url()));
        JsonNode c1 = cluster.awaitReady("AgentBackend", "echo", "True");
        long g1 = c1.path("observedGeneration").asLong();
        cluster.apply(backend("echo", cluster.agent("second").url()));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("observedGeneration moves")
                .until(() -> cluster.ready("AgentBackend", "echo").path("observedGeneration").asLong() > g1);
        assertThat(cluster.ready("AgentBackend", "echo").path("status").asText()).isEqualTo("True");
    }

    /** Calls the gateway until the call lands on {@code agent} (the watch applies changes within moments). */
    private static void awaitReached(TestHttp http, String id, TestAgent agent) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias(id + " reaches " + agent.url())
                .until(() -> {
                    Reply r = http.rpc(id, Rpc.send(2, "hello"));
                    return r.status() == 200 && r.json().has("result") && !agent.recorder().rpcRequests().isEmpty();
                });
    }
}
