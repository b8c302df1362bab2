package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.switchboard.cli.WatchMode;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, readiness: /readyz answers 503 naming "kubernetes first sync" until the first reconcile is applied to
 * the running app and its statuses are written; no status is written before the app runs what it says.
 */
@ServerTest
class FirstSyncGatesReadinessTest {

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    @Test
    void readyzWaitsForTheFirstSyncAndThenEveryResourceHasItsStatus() {
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.apply(backend("broken", "nowhere"));
        WatchMode.Running running = cluster.startNotFollowing();
        TestHttp http = cluster.http();
        Reply waiting = http.get("/readyz");
        assertThat(waiting.status()).isEqualTo(503);
        assertThat(waiting.json().path("status").asText()).isEqualTo("NOT_READY");
        assertThat(waiting.json().path("pending").toString()).contains(WatchMode.FIRST_SYNC);
        assertThat(cluster.ready("AgentBackend", "echo").isMissingNode()).as("no status before the app runs it").isTrue();
        assertThat(http.get("/healthz").status()).isEqualTo(200);

        running.follow();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).alias("/readyz 200")
                .until(() -> http.get("/readyz").status() == 200);
        // ready means written: no waiting for the statuses
        assertThat(cluster.ready("AgentBackend", "echo").path("status").asText()).isEqualTo("True");
        assertThat(cluster.ready("AgentBackend", "broken").path("status").asText()).isEqualTo("False");
    }

    @Test
    void anApiServerWithoutTheCrdsStopsTheStartNamingWhatToInstall() {
        // not in CRUD mode and with no expectations: every path answers 404, as for resources the server does not know
        KubernetesMockServer bare = new KubernetesMockServer(false);
        bare.init();
        try (var client = bare.createClient()) {
            assertThatThrownBy(() -> cluster.switchboard(cluster.serverFile(), client).start())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot list ")
                    .hasMessageContaining(".switchboard.dev in namespace agents: the API server does not know them "
                            + "(HTTP 404): is the CRD installed (deploy/crds)?");
        } finally {
            bare.destroy();
        }
    }
}
