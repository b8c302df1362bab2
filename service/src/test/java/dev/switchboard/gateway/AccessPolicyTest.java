package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.policy.AccessPolicySpec;
import dev.switchboard.policy.AccessPolicySpec.Subject;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.policy.CallerLimitSettings;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AccessPolicy grants and per-caller limits over real HTTP: what no policy grants is 403 before any agent is
 * contacted, the registry and the cards show a caller only its agents, and a caller over its rate gets 429 with
 * Retry-After and gets through again once the bucket refills.
 */
@ServerTest
class AccessPolicyTest {

    private static final String CI_KEY = "ci-key-policy-0123456789";
    private static final String OPS_KEY = "ops-key-policy-0123456789";
    private static final String ADMIN = "admin-token-policy-0123";
    /** A key that no policy names. */
    private static final String IDLE_KEY = "idle-key-policy-0123456789";

    @TempDir
    static Path dir;
    @TempDir
    static Path openDir;
    @TempDir
    static Path limitedDir;

    static Harness gated;
    static TestAgent echo;
    static TestAgent secret;

    @BeforeAll
    static void start() {
        gated = new Harness(dir);
        echo = gated.agent(TestAgentOptions.echo("echo"));
        secret = gated.agent(TestAgentOptions.echo("secret"));
        gated.apiKey("ci-bot", CI_KEY).apiKey("ops", OPS_KEY).apiKey("idle", IDLE_KEY).adminToken(ADMIN)
                .backend("echo", echo.url())
                .backend("secret", secret.url())
                .backend(new AgentBackendSpec("labelled", "default", echo.url(), Dialect.A2A, null, null, null, Map.of(),
                        null, AgentLimits.DEFAULTS, List.of(), RegisteredAgent.CallerForwarding.NONE,
                        Map.of("team", "sre")))
                .backend(Harness.spec("tagged", echo.url(), AgentLimits.DEFAULTS, Map.of(), null,
                        List.of(new AgentSkill("triage", "Triage", "", List.of("triage"), null, null, null))))
                .policy(new AccessPolicySpec("ci", List.of(new Subject.ApiKey("ci-bot")), List.of("echo"), Map.of(),
                        List.of(), List.of("message/send"), null))
                .policy(new AccessPolicySpec("sre", List.of(new Subject.ApiKey("ops")), List.of(), Map.of("team", "sre"),
                        List.of(), List.of("*"), null))
                .policy(new AccessPolicySpec("triage", List.of(new Subject.ApiKey("ops")), List.of(), Map.of(),
                        List.of("triage"), List.of("SendMessage"), null))
                .start();
    }

    @AfterAll
    static void stop() {
        gated.close();
    }

    @BeforeEach
    void clear() {
        echo.recorder().clear();
        secret.recorder().clear();
    }

    @Test
    void aKeyWithoutAGrantForAnAgentIs403BeforeTheAgentSeesAnything() {
        ListAppender<ILoggingEvent> logs = capture();
        try {
            Reply send = gated.http().rpc("secret", Rpc.send(7, "let me in"), "Authorization", "Bearer " + CI_KEY);
            assertThat(send.status()).isEqualTo(403);
            assertThat(send.errorCode()).isEqualTo(-31403);
            assertThat(send.json().path("id").asInt()).as("the refusal names the call").isEqualTo(7);
            assertThat(send.errorMessage()).contains("caller ci-bot has no grant for agent secret");
            assertThat(gated.http().rpc("secret", Rpc.stream(8, "x"), "Authorization", "Bearer " + CI_KEY).status())
                    .isEqualTo(403);
            assertThat(gated.http().get("/a2a/secret/stream", "Authorization", "Bearer " + CI_KEY).status())
                    .isEqualTo(403);
            assertThat(secret.recorder().requests()).as("requests that reached the agent").isEmpty();
            ILoggingEvent line = logs.list.stream().filter(e -> e.getFormattedMessage().contains("agent secret"))
                    .findFirst().orElseThrow();
            assertThat(line.getMDCPropertyMap()).containsEntry("caller", "ci-bot").containsEntry("policy", "none")
                    .containsEntry("agent", "secret");
        } finally {
            release(logs);
        }
    }

    @Test
    void aGrantByMethodAllowsMessageSendButRefusesTasksCancel() {
        Reply sent = gated.http().rpc("echo", Rpc.send(1, "hello"), "Authorization", "Bearer " + CI_KEY);
        assertThat(sent.status()).isEqualTo(200);
        assertThat(sent.json().path("result").path("status").path("state").asText()).isEqualTo("completed");

        Reply cancel = gated.http().rpc("echo",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/cancel\",\"params\":{\"id\":\"t-1\"}}",
                "Authorization", "Bearer " + CI_KEY);
        assertThat(cancel.status()).isEqualTo(403);
        assertThat(cancel.errorCode()).isEqualTo(-31403);
        assertThat(cancel.json().path("id").asInt()).isEqualTo(2);
        assertThat(cancel.errorMessage()).contains("caller ci-bot has no grant for method tasks/cancel on agent echo");
        assertThat(echo.recorder().requests()).extracting(r -> r.rpcMethod()).containsExactly("message/send");
    }

    @Test
    void aLabelSelectorGrantsTheAgentsWhoseBackendCarriesTheLabels() {
        Reply get = gated.http().rpc("labelled",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/get\",\"params\":{\"id\":\"no-such-task\"}}",
                "Authorization", "Bearer " + OPS_KEY);
        assertThat(get.status()).as("every method of the labelled agent: the agent answers").isEqualTo(200);
        assertThat(echo.recorder().requests()).hasSize(1);
        assertThat(gated.http().rpc("echo", Rpc.send(4, "x"), "Authorization", "Bearer " + OPS_KEY).status())
                .as("echo carries no team label").isEqualTo(403);
    }

    @Test
    void aSkillTagGrantsTheAgentsWithATaggedSkill() {
        assertThat(gated.http().rpc("tagged", Rpc.send(5, "x"), "Authorization", "Bearer " + OPS_KEY).status())
                .as("SendMessage granted: message/send is its 0.3 name").isEqualTo(200);
        Reply cancel = gated.http().rpc("tagged",
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"CancelTask\",\"params\":{\"id\":\"t\"}}",
                "Authorization", "Bearer " + OPS_KEY);
        assertThat(cancel.status()).isEqualTo(403);
        assertThat(cancel.errorMessage()).contains("method CancelTask on agent tagged");
    }

    @Test
    void theRegistryListAndThePlatformCardShowOnlyGrantedAgents() {
        assertThat(agentIds(gated.http().get("/agents", "Authorization", "Bearer " + CI_KEY).json()))
                .containsExactly("echo");
        assertThat(agentIds(gated.http().get("/agents", "Authorization", "Bearer " + OPS_KEY).json()))
                .containsExactlyInAnyOrder("labelled", "tagged");
        assertThat(agentIds(gated.http().get("/agents", "Authorization", "Bearer " + ADMIN).json()))
                .as("the admin token sees them all").containsExactlyInAnyOrder("echo", "secret", "labelled", "tagged");
        assertThat(gated.http().get("/agents/secret", "Authorization", "Bearer " + CI_KEY).status()).isEqualTo(404);
        assertThat(agentIds(gated.http().get("/agents", "Authorization", "Bearer " + IDLE_KEY).json()))
                .as("a key no policy names sees no agent").isEmpty();
        assertThat(gated.http().get("/agents/echo", "Authorization", "Bearer " + IDLE_KEY).status()).isEqualTo(404);
        assertThat(gated.http().get("/agents", "Authorization", "Bearer not-a-key-at-all-0123").status())
                .as("an unknown key is refused, not shown an empty list").isEqualTo(401);
        assertThat(gated.http().get("/agents/echo", "Authorization", "Bearer " + CI_KEY).status()).isEqualTo(200);

        JsonNode card = gated.http().get("/.well-known/agent-card.json", "Authorization", "Bearer " + OPS_KEY).json();
        List<String> skillIds = new ArrayList<>();
        card.path("skills").forEach(s -> skillIds.add(s.path("id").asText()));
        assertThat(skillIds).isNotEmpty().allMatch(id -> id.startsWith("labelled/") || id.startsWith("tagged/"));

        Reply denied = gated.http().get("/a2a/secret/.well-known/agent-card.json", "Authorization", "Bearer " + CI_KEY);
        assertThat(denied.status()).isEqualTo(403);
        assertThat(denied.text()).contains("caller ci-bot has no grant for agent secret");
        assertThat(gated.http().get("/a2a/echo/.well-known/agent-card.json", "Authorization", "Bearer " + CI_KEY)
                .status()).isEqualTo(200);
        assertThat(secret.recorder().requests()).isEmpty();
    }

    @Test
    void withNoPolicyEveryKeyMayCallEveryAgentAsBefore() {
        try (Harness open = new Harness(openDir)) {
            TestAgent agent = open.agent(TestAgentOptions.echo("open"));
            open.apiKey("ci-bot", CI_KEY).backend("open", agent.url()).start();
            assertThat(open.http().rpc("open", Rpc.send(1, "hi"), "Authorization", "Bearer " + CI_KEY).status())
                    .isEqualTo(200);
            Reply cancel = open.http().rpc("open",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/cancel\",\"params\":{\"id\":\"t-1\"}}",
                    "Authorization", "Bearer " + CI_KEY);
            assertThat(cancel.status()).isEqualTo(200);
            assertThat(cancel.text()).doesNotContain("-31403");
            assertThat(agentIds(open.http().get("/agents", "Authorization", "Bearer " + CI_KEY).json()))
                    .containsExactly("open");
        }
    }

    @Test
    void overItsRateACallerGets429WithRetryAfterAndRecovers() {
        try (Harness limited = new Harness(limitedDir)) {
            TestAgent agent = limited.agent(TestAgentOptions.echo("limited"));
            limited.apiKey("ci-bot", CI_KEY).backend("limited", agent.url())
                    .gateway(dev.switchboard.gateway.GatewaySettings.DEFAULTS.withCallerLimits(new CallerLimitSettings(
                            null, new CallerLimitSettings.Rate(0.5, 1), 0)))
                    .start();
            assertThat(limited.http().rpc("limited", Rpc.send(1, "a"), "Authorization", "Bearer " + CI_KEY).status())
                    .isEqualTo(200);
            Reply over = limited.http().rpc("limited", Rpc.send(2, "b"), "Authorization", "Bearer " + CI_KEY);
            assertThat(over.status()).isEqualTo(429);
            assertThat(Integer.parseInt(over.header("Retry-After"))).isBetween(1, 2);
            assertThat(over.errorCode()).isEqualTo(-31429);
            assertThat(over.json().path("id").asInt()).isEqualTo(2);
            assertThat(over.errorMessage()).contains("caller ci-bot").contains("rate limit for agent limited");
            assertThat(agent.recorder().requests()).hasSize(1);
            assertThat(limited.metrics().sum("switchboard_gateway_rate_limited_total", "agent", "limited",
                    "limit", "caller_agent")).isEqualTo(1);
            // a token every two seconds: it recovers well within the wait
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> limited.http()
                    .rpc("limited", Rpc.send(3, "c"), "Authorization", "Bearer " + CI_KEY).status() == 200);
        }
    }

    private static List<String> agentIds(JsonNode list) {
        List<String> ids = new ArrayList<>();
        list.path("agents").forEach(a -> ids.add(a.path("agent_id").asText()));
        return ids;
    }

    private static ListAppender<ILoggingEvent> capture() {
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
                .getLogger(CallerRefusals.class);
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        log.addAppender(logs);
        return logs;
    }

    private static void release(ListAppender<ILoggingEvent> logs) {
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(CallerRefusals.class)).detachAppender(logs);
    }
}
