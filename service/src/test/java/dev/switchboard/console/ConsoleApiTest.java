package dev.switchboard.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.registry.RegistrySettings;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27, the console's API over real HTTP: the registry with each agent's reachability from the card probe (an
 * agent that goes away shows unreachable within a probe interval), one agent's cards, limits and last hour, the
 * bridge's sessions, and who may read it (as /metrics: the admin token beyond loopback, never an API key).
 */
@ServerTest
class ConsoleApiTest {

    private static final String ADMIN = "console-admin-token-0123456789";
    private static final String KEY = "console-api-key-0123456789";
    private static final Duration PROBE = Duration.ofSeconds(1);

    @TempDir
    Path dir;
    private Harness h;

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void theRegistryShowsAnAgentGoingUnreachableWithinAProbeInterval() {
        h = new Harness(dir).registry(new RegistrySettings(List.of(), 1000, PROBE));
        TestAgent echo = h.agent(TestAgentOptions.echo("echo"));
        TestAgent doomed = h.agent(TestAgentOptions.echo("doomed"));
        h.backend("echo", echo.url()).backend("doomed", doomed.url()).start();

        await("both agents probed reachable").untilAsserted(() -> {
            JsonNode agents = h.http().get("/console/api/agents").json();
            assertThat(agents.path("probeIntervalSeconds").asDouble()).isEqualTo(1.0);
            assertThat(agent(agents, "echo").path("reachable").asBoolean()).isTrue();
            assertThat(agent(agents, "doomed").path("reachable").asBoolean()).isTrue();
        });
        JsonNode echoRow = agent(h.http().get("/console/api/agents").json(), "echo");
        assertThat(echoRow.path("origin").asText()).isEqualTo("config");
        assertThat(echoRow.path("dialect").asText()).isEqualTo("a2a");
        assertThat(echoRow.path("url").asText()).isEqualTo(echo.url());
        assertThat(echoRow.has("ttlLeftSeconds")).as("a configured agent never expires").isFalse();
        assertThat(echoRow.path("version").asText()).as("from its card").isEqualTo("1.0.0");

        doomed.close().await();
        long closedAt = System.nanoTime();
        await("the closed agent shows unreachable").untilAsserted(() -> {
            JsonNode row = agent(h.http().get("/console/api/agents").json(), "doomed");
            assertThat(row.path("reachable").isBoolean()).isTrue();
            assertThat(row.path("reachable").asBoolean()).isFalse();
            assertThat(row.path("probeError").asText()).isNotBlank();
        });
        // one interval for the next round, one for its answer (a refused connection answers at once)
        assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).as("seen within a probe interval, give or take a round")
                .isLessThan(PROBE.multipliedBy(2).plusSeconds(3));
        assertThat(agent(h.http().get("/console/api/agents").json(), "echo").path("reachable").asBoolean()).isTrue();
    }

    @Test
    void theProbeSendsNothingUntilTheConsoleIsUsed() {
        h = new Harness(dir).registry(new RegistrySettings(List.of(), 1000, PROBE));
        TestAgent echo = h.agent(TestAgentOptions.echo("echo"));
        h.backend("echo", echo.url()).start();
        // three probe intervals with no console: no card request of the probe's reaches the agent
        await().during(PROBE.multipliedBy(3)).atMost(PROBE.multipliedBy(3).plusSeconds(10))
                .until(() -> cardFetches(echo) == 0);
        h.http().get("/console/api/agents");
        await("the first round, at the console's first use").until(() -> cardFetches(echo) >= 1);
    }

    private static long cardFetches(TestAgent agent) {
        return agent.recorder().requests().stream().filter(r -> r.path().endsWith("/.well-known/agent-card.json")).count();
    }

    @Test
    void anAgentsPageHasItsCardsLimitsAndLastHour() {
        h = new Harness(dir).registry(new RegistrySettings(List.of(), 1000, PROBE));
        TestAgent echo = h.agent(TestAgentOptions.echo("echo"));
        h.backend("echo", echo.url()).start();
        Reply call = h.http().rpc("echo", Rpc.send(1, "hello"));
        assertThat(call.status()).isEqualTo(200);
        assertThat(call.text()).contains("\"result\"");
        h.http().rpc("nobody-registered-this", Rpc.send(2, "hello"));

        await("the card fetched").untilAsserted(() ->
                assertThat(h.http().get("/console/api/agents/echo").json().has("cardFetched")).isTrue());
        JsonNode a = h.http().get("/console/api/agents/echo").json();
        assertThat(a.path("cardFetched").path("name").asText()).isEqualTo("echo");
        assertThat(a.path("cardRewritten").toString()).contains(h.http().base() + "/a2a/echo")
                .doesNotContain(echo.url());
        assertThat(a.path("limits").path("maxConcurrency").asInt()).isPositive();
        // the check's own rows and words on the fetched card (the echo agent streams, over JSON-RPC)
        assertThat(a.path("cardFindings").findValuesAsText("row"))
                .containsExactly("discovery.card", "discovery.jsonrpc-interface", "discovery.streaming", "discovery.extensions");
        assertThat(a.path("cardFindings").findValuesAsText("verdict")).containsOnly("PASS");
        assertThat(a.path("inFlight").asInt()).isZero();
        JsonNode hour = a.path("lastHour");
        assertThat(hour.size()).isEqualTo(60);
        JsonNode now = hour.get(59);
        long requests = 0;
        for (JsonNode m : hour) {
            requests += m.path("requests").asLong();
        }
        assertThat(requests).as("the call just made, in the last minute or the one before").isEqualTo(1);
        assertThat(now.path("requests").asLong() + hour.get(58).path("requests").asLong()).isEqualTo(1);
        JsonNode timed = now.path("requests").asLong() == 1 ? now : hour.get(58);
        assertThat(timed.path("errors").asLong()).isZero();
        assertThat(timed.path("p50Ms").asLong()).isPositive();
        assertThat(timed.path("p99Ms").asLong()).isGreaterThanOrEqualTo(timed.path("p50Ms").asLong());

        assertThat(h.http().get("/console/api/agents/nobody").status()).isEqualTo(404);
        assertThat(h.http().get("/console/api/nothing-here").status()).isEqualTo(404);
        JsonNode resources = h.http().get("/console/api/resources").json();
        assertThat(resources.path("watchMode").asBoolean()).as("a file-configured server").isFalse();
        assertThat(resources.path("resources").size()).isZero();
        JsonNode bridge = h.http().get("/console/api/bridge").json();
        assertThat(bridge.path("sessions").asLong()).isZero();
        assertThat(bridge.path("turnsByState").isObject()).isTrue();
        // the page: plain modules from this server
        Reply page = h.http().get("/console/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.text()).contains("<script type=\"module\" src=\"app.js\">").doesNotContain("http://", "https://");
        assertThat(h.http().get("/console").status()).isEqualTo(302);
        assertThat(h.http().get("/console/app.js").status()).isEqualTo(200);
    }

    @Test
    void aCardTheBridgeWouldRefuseShowsTheChecksFailure() {
        h = new Harness(dir).registry(new RegistrySettings(List.of(), 1000, PROBE));
        TestAgent flat = h.agent(TestAgentOptions.echo("flat").withStreaming(false));
        h.backend("flat", flat.url()).start();
        await("the card judged").untilAsserted(() ->
                assertThat(h.http().get("/console/api/agents/flat").json().has("cardFindings")).isTrue());
        JsonNode streaming = null;
        for (JsonNode f : h.http().get("/console/api/agents/flat").json().path("cardFindings")) {
            if (f.path("row").asText().equals("discovery.streaming")) {
                streaming = f;
            }
        }
        assertThat(streaming).isNotNull();
        assertThat(streaming.path("verdict").asText()).isEqualTo("FAIL");
        assertThat(streaming.path("reason").asText()).contains("capabilities.streaming is not true");
    }

    @Test
    void beyondLoopbackTheApiNeedsTheAdminTokenNotAnApiKey() {
        h = new Harness(dir).listen("0.0.0.0").adminToken(ADMIN).apiKey("ops", KEY);
        TestAgent echo = h.agent(TestAgentOptions.echo("echo"));
        h.backend("echo", echo.url()).start();
        assertThat(h.http().get("/console/api/agents").status()).isEqualTo(401);
        assertThat(h.http().get("/console/api/agents", "Authorization", "Bearer " + KEY).status()).isEqualTo(401);
        assertThat(h.http().get("/console/api/bridge", "Authorization", "Bearer " + KEY).status()).isEqualTo(401);
        Reply ok = h.http().get("/console/api/agents", "Authorization", "Bearer " + ADMIN);
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.text()).contains("\"echo\"").doesNotContain(ADMIN).doesNotContain(KEY);
        // the page holds no data: it loads, then asks for the token
        assertThat(h.http().get("/console/").status()).isEqualTo(200);
    }

    private static JsonNode agent(JsonNode agents, String id) {
        for (JsonNode a : agents.path("agents")) {
            if (a.path("id").asText().equals(id)) {
                return a;
            }
        }
        throw new AssertionError("no agent " + id + " in " + agents);
    }
}
