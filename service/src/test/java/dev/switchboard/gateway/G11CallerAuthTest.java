package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G11: optional API keys ({@code Authorization: Bearer <key>} → caller id = the key's name); without
 * keys configured the caller id is the remote address. Unauthenticated → HTTP 401 before any agent is
 * contacted. The admin side (registry writes) needs the admin token when one is set.
 */
@ServerTest
class G11CallerAuthTest {

    private static final String CI_KEY = "ci-key-g11-0123456789";
    private static final String OPS_KEY = "ops-key-g11-9876543210";
    private static final String ADMIN = "admin-token-g11";

    @TempDir
    static Path dir;
    @TempDir
    static Path openDir;

    static Harness keyed;
    static Harness open;
    static TestAgent agent;

    @BeforeAll
    static void start() {
        keyed = new Harness(dir);
        agent = keyed.agent(TestAgentOptions.echo("auth"));
        keyed.apiKey("ci-bot", CI_KEY).apiKey("ops", OPS_KEY).adminToken(ADMIN).backend("auth", agent.url()).start();
        open = new Harness(openDir);
        open.backend("auth", agent.url()).start();
    }

    @AfterAll
    static void stop() {
        open.close();
        keyed.close();
    }

    @BeforeEach
    void clear() {
        agent.recorder().clear();
    }

    @Test
    void g11_withoutAValidKeyTheCallIs401AndNoAgentIsContacted() {
        TestHttp http = keyed.http();
        List<String[]> attempts = List.of(
                new String[] {},
                new String[] {"Authorization", "Bearer not-a-key"},
                new String[] {"Authorization", "Bearer " + CI_KEY + "x"},
                new String[] {"Authorization", "Basic " + CI_KEY},
                new String[] {"Authorization", CI_KEY},
                new String[] {"Authorization", "Bearer " + ADMIN},
                new String[] {"X-API-Key", CI_KEY});
        for (String[] headers : attempts) {
            Reply reply = http.rpc("auth", Rpc.send(1, "let me in"), headers);
            assertThat(reply.status()).as(String.join(" ", headers)).isEqualTo(401);
            assertThat(reply.header("Content-Type")).startsWith("application/json");
            assertThat(reply.text()).doesNotContain(CI_KEY).doesNotContain(OPS_KEY).doesNotContain(ADMIN);
        }
        // a streaming call, an unknown agent, an invalid body: authentication comes first
        assertThat(http.rpc("auth", Rpc.stream(2, "/stream 3 10")).status()).isEqualTo(401);
        assertThat(http.rpc("no-such-agent", Rpc.send(3, "x")).status()).isEqualTo(401);
        assertThat(http.rpc("auth", "not even json").status()).isEqualTo(401);

        assertThat(agent.recorder().requests()).as("requests that reached the agent").isEmpty();
    }

    @Test
    void g11_theCallerIdIsTheKeysName() {
        Reply ci = keyed.http().rpc("auth", Rpc.send(1, "as ci-bot"), "Authorization", "Bearer " + CI_KEY);
        assertThat(ci.json().path("result").path("status").path("state").asText()).isEqualTo("completed");
        RecordedRequest seenCi = agent.recorder().lastRequest();
        assertThat(seenCi.headers().getAll("X-Switchboard-Caller-ID")).containsExactly("ci-bot");
        assertThat(seenCi.headers().contains("Authorization")).as("the caller's key is not passed on").isFalse();

        keyed.http().rpc("auth", Rpc.send(2, "as ops"), "Authorization", "Bearer " + OPS_KEY,
                "X-Switchboard-Caller-ID", "ci-bot");
        assertThat(agent.recorder().lastRequest().headers().getAll("X-Switchboard-Caller-ID")).containsExactly("ops");
    }

    @Test
    void g11_withoutKeysConfiguredTheCallerIdIsTheRemoteAddress() {
        Reply reply = open.http().rpc("auth", Rpc.send(1, "anonymous"), "Authorization", "Bearer whatever");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(agent.recorder().lastRequest().headers().getAll("X-Switchboard-Caller-ID")).containsExactly("127.0.0.1");
    }

    @Test
    void g11_registryWritesNeedTheAdminToken() {
        TestHttp http = keyed.http();
        String body = "{\"agent_id\":\"admin-only\",\"name\":\"Admin only\",\"url\":\"" + agent.url() + "\"}";

        assertThat(http.post("/agents/register", body).status()).isEqualTo(401);
        assertThat(http.post("/agents/register", body, "Authorization", "Bearer " + CI_KEY).status())
                .as("an API key is not the admin token").isEqualTo(401);
        assertThat(http.post("/agents/register", body, "Authorization", "Bearer " + ADMIN).status()).isEqualTo(200);
        assertThat(http.delete("/agents/admin-only", "Authorization", "Bearer " + CI_KEY).status()).isEqualTo(401);
        assertThat(http.delete("/agents/admin-only", "Authorization", "Bearer " + ADMIN).status()).isEqualTo(200);
    }

    @Test
    void g11_registryReadsNeedAnApiKeyWhenKeysAreConfigured() {
        assertThat(keyed.http().get("/agents").status()).isEqualTo(401);
        assertThat(keyed.http().get("/agents", "Authorization", "Bearer " + CI_KEY).status()).isEqualTo(200);
        assertThat(keyed.http().get("/agents/auth", "Authorization", "Bearer " + ADMIN).status()).isEqualTo(200);
    }
}
