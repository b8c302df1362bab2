package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, AccessPolicies: one created in the cluster closes the gateway to callers it does not grant, without a
 * restart; one that is not valid grants nothing but keeps it closed (it fails closed, never open); deleting the last
 * one opens it again. (The fixture's server has no API keys: its callers are addresses, which a claim never grants.)
 */
@ServerTest
class AccessPoliciesFollowTheClusterTest {

    private static final int FORBIDDEN = -31403;

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    @Test
    void accessPoliciesAreWatchedAndAppliedWithoutARestart() {
        cluster.start();
        TestHttp http = cluster.http();
        cluster.apply(backend("echo", cluster.agent("echo").url()));
        cluster.awaitReady("AgentBackend", "echo", "True");
        awaitStatus(http, 200);

        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: sre}
                spec:
                  subjects: [{claim: groups, values: [sre]}]
                  agents: {names: [echo]}
                  methods: ["*"]
                """);
        JsonNode ready = cluster.awaitReady("AccessPolicy", "sre", "True");
        assertThat(ready.path("reason").asText()).isEqualTo("Applied");
        awaitStatus(http, 403);
        assertThat(http.rpc("echo", Rpc.send(1, "x")).errorCode()).isEqualTo(FORBIDDEN);

        cluster.delete("AccessPolicy", "sre");
        awaitStatus(http, 200);

        // a policy naming a key the server does not have: not Ready, grants nothing, and the gateway stays closed
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: typo}
                spec:
                  subjects: [{apiKey: no-such-key}]
                  methods: ["*"]
                """);
        JsonNode notReady = cluster.awaitReady("AccessPolicy", "typo", "False");
        assertThat(notReady.path("message").asText()).contains("no API key named 'no-such-key'");
        awaitStatus(http, 403);
    }

    private static void awaitStatus(TestHttp http, int status) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("the gateway answers " + status)
                .until(() -> http.rpc("echo", Rpc.send(2, "hello")).status() == status);
    }
}
