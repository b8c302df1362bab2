package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, the console's admin grant: an AccessPolicy with {@code admin: true} created in the cluster opens the
 * console's API beyond loopback to its API key without a restart, leaves the gateway open (a console-only policy is
 * no gateway policy), and deleting it closes the console to that key again.
 */
@ServerTest
class AdminGrantFollowsTheClusterTest {

    private static final String ADMIN = "cluster-admin-token-0123456789";
    private static final String OPS_KEY = "ops-key-in-the-cluster-0123456789";

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    @Test
    void anAdminPolicyInTheClusterOpensTheConsoleToItsKeyAndDeletingItClosesIt() {
        cluster.start(cluster.serverFile().replace("listen: 127.0.0.1:0", "listen: 0.0.0.0:0") + """
                  adminToken: %s
                  apiKeys: [{name: ops, key: %s}]
                """.formatted(ADMIN, OPS_KEY));
        TestHttp http = cluster.http();
        cluster.apply(backend("echo", cluster.agent("echo").url()));
        cluster.awaitReady("AgentBackend", "echo", "True");
        assertThat(console(http)).as("no admin grant anywhere: a key is refused as before").isEqualTo(401);
        assertThat(http.get("/console/api/agents", "Authorization", "Bearer " + ADMIN).status()).isEqualTo(200);

        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: console-admins}
                spec:
                  subjects: [{apiKey: ops}]
                  admin: true
                """);
        cluster.awaitReady("AccessPolicy", "console-admins", "True");
        awaitConsole(http, 200);
        assertThat(http.rpc("echo", Rpc.send(1, "hello"), "Authorization", "Bearer " + OPS_KEY).status())
                .as("a console-only policy does not close the gateway").isEqualTo(200);

        cluster.delete("AccessPolicy", "console-admins");
        awaitConsole(http, 401);
    }

    private static int console(TestHttp http) {
        return http.get("/console/api/agents", "Authorization", "Bearer " + OPS_KEY).status();
    }

    private static void awaitConsole(TestHttp http, int status) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("the console answers " + status)
                .until(() -> console(http) == status);
    }
}
