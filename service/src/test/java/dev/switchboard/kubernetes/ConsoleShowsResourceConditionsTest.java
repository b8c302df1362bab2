package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 27, the console in watch mode: it lists every resource with the Ready condition the last reconcile decided
 * (a broken one with the loader's words), and the agents that come from the cluster say so.
 */
@ServerTest
class ConsoleShowsResourceConditionsTest {

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    @Test
    void theConsoleListsEveryResourceWithItsReadyCondition() {
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: broken}
                spec:
                  url: not-a-url
                """);
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.start();
        TestHttp http = cluster.http();
        cluster.awaitReady("AgentBackend", "broken", "False");
        cluster.awaitReady("AgentBackend", "echo", "True");

        await("both in the console").untilAsserted(() -> {
            JsonNode out = http.get("/console/api/resources").json();
            assertThat(out.path("watchMode").asBoolean()).isTrue();
            JsonNode broken = find(out, "broken");
            assertThat(broken.path("ready").asText()).isEqualTo("False");
            assertThat(broken.path("reason").asText()).isEqualTo("InvalidSpec");
            assertThat(broken.path("message").asText()).isEqualTo("spec.url: 'not-a-url' must be an absolute http or https URL");
            assertThat(find(out, "echo").path("ready").asText()).isEqualTo("True");
            assertThat(find(out, "echo").path("kind").asText()).isEqualTo("AgentBackend");
        });
        JsonNode agents = http.get("/console/api/agents").json().path("agents");
        assertThat(agents).singleElement().satisfies(a -> {
            assertThat(a.path("id").asText()).isEqualTo("echo");
            assertThat(a.path("origin").asText()).isEqualTo("kubernetes");
        });
    }

    private static JsonNode find(JsonNode out, String name) {
        for (JsonNode r : out.path("resources")) {
            if (r.path("name").asText().equals(name)) {
                return r;
            }
        }
        throw new AssertionError("no resource " + name + " in " + out);
    }
}
