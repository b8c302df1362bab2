package dev.switchboard.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The door's transport rules and per-skill tools, over plain HTTP: the gateway's keys before any body, a session that
 * only its caller can use, one message per POST, the session cap, and {@code <agent>.<skill>} tools that call the
 * agent.
 */
@ServerTest
class McpDoorTest {

    private static final String KEY = "mcp-key-0123456789";
    private static final String OTHER = "other-key-0123456789";
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent agent;

    @BeforeAll
    static void start() {
        h = new Harness(dir).mcp(new McpSettings(true, true, 3, Duration.ofMinutes(5), McpSettings.DEFAULTS.maxTextBytes()));
        agent = h.agent(TestAgentOptions.echo("skilled"));
        h.backend(Harness.spec("skilled", agent.url(), null, Map.of(), null,
                List.of(new AgentSkill("sum.up", "Summing up", "Sums things up", List.of("maths"), null, null, null))))
                .apiKey("caller", KEY).apiKey("other", OTHER).start();
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    private static Reply post(String body, String key, String session) {
        return session == null
                ? h.http().post("/mcp", body, "Content-Type", "application/json", "Accept",
                        "application/json, text/event-stream", "Authorization", "Bearer " + key)
                : h.http().post("/mcp", body, "Content-Type", "application/json", "Accept",
                        "application/json, text/event-stream", "Authorization", "Bearer " + key, "Mcp-Session-Id", session);
    }

    private static String session(String key) {
        Reply r = post(INIT, key, null);
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        return r.header("Mcp-Session-Id");
    }

    @Test
    void noKeyIsRefusedBeforeAnything() {
        Reply r = h.http().post("/mcp", INIT, "Content-Type", "application/json");
        assertThat(r.status()).isEqualTo(401);
        assertThat(r.errorMessage()).contains("unauthorized");
    }

    @Test
    void aBodyThatIsNotJsonIs415BeforeItIsRead() {
        // found by the fuzzer: a form body with a query string that does not decode hung the request
        Reply form = h.http().post("/mcp?x=%zz", INIT, "Content-Type", "application/x-www-form-urlencoded",
                "Authorization", "Bearer " + KEY);
        assertThat(form.status()).isEqualTo(415);
        assertThat(form.errorMessage()).contains("Content-Type must be application/json");
    }

    @Test
    void aSessionAnswersOnlyItsCaller() {
        String s = session(KEY);
        String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
        assertThat(post(list, KEY, s).status()).isEqualTo(200);
        Reply stolen = post(list, OTHER, s);
        assertThat(stolen.status()).isEqualTo(404);
        assertThat(stolen.errorMessage()).contains("session not found");
        assertThat(h.http().delete("/mcp", "Authorization", "Bearer " + KEY, "Mcp-Session-Id", s).status()).isEqualTo(204);
        assertThat(post(list, KEY, s).status()).isEqualTo(404);
    }

    @Test
    void oneMessagePerPost() {
        Reply batch = post("[" + INIT + "]", KEY, null);
        assertThat(batch.status()).isEqualTo(400);
        assertThat(batch.errorMessage()).contains("batches are not supported");
        Reply junk = post("{not json", KEY, null);
        assertThat(junk.status()).isEqualTo(400);
        assertThat(junk.errorMessage()).contains("parse error");
        Reply noSession = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", KEY, null);
        assertThat(noSession.status()).isEqualTo(400);
        assertThat(noSession.errorMessage()).contains("Mcp-Session-Id");
    }

    @Test
    void perSkillToolsCallTheirAgent() {
        String s = session(KEY);
        Reply tools = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", KEY, s);
        assertThat(tools.text()).contains("\"skilled.sum_up\"");
        Reply call = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"skilled.sum_up\","
                + "\"arguments\":{\"text\":\"add these\"}}}", KEY, s);
        assertThat(call.status()).isEqualTo(200);
        assertThat(call.json().path("result").path("structuredContent").path("state").asText()).isEqualTo("completed");
        assertThat(call.json().path("result").path("structuredContent").path("text").asText()).contains("add these");
        assertThat(h.http().get("/metrics").text())
                .contains("switchboard_mcp_tool_calls_total{agent=\"skilled\",outcome=\"ok\",tool=\"skill\"}")
                .contains("switchboard_mcp_sessions");
        h.http().delete("/mcp", "Authorization", "Bearer " + KEY, "Mcp-Session-Id", s);
    }

    @Test
    void skillToolNamesObeyMcpsRules() {
        assertThat(SkillToolNames.of("agent-1", "a b/c.d")).isEqualTo("agent-1.a_b_c_d");
        assertThat(SkillToolNames.of("agent-1", "x".repeat(300))).hasSize(SkillToolNames.MAX);
        assertThat(SkillToolNames.valid(SkillToolNames.of("agent-1", "ünïcode"))).isTrue();
        assertThat(SkillToolNames.of("agent-1", " ")).isNull();
    }

    @Test
    void theSessionCapRefusesWithRetryAfter() {
        List<String> held = new java.util.ArrayList<>();
        Reply refused = null;
        for (int i = 0; i < 5 && refused == null; i++) {
            Reply r = post(INIT, OTHER, null);
            if (r.status() == 503) {
                refused = r;
            } else {
                held.add(r.header("Mcp-Session-Id"));
            }
        }
        assertThat(refused).as("a session over maxSessions (3)").isNotNull();
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.errorMessage()).contains("maxSessions");
        held.forEach(s -> h.http().delete("/mcp", "Authorization", "Bearer " + OTHER, "Mcp-Session-Id", s));
    }
}
