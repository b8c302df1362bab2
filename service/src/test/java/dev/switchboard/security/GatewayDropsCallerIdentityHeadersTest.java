package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: a caller claims to be someone else. Agents written to sit behind an authenticating proxy
 * believe {@code X-User-Id}, {@code X-Forwarded-User}/{@code -Email} and friends; the gateway is no
 * such proxy, so whatever a caller sends under those names never reaches the agent. The gateway's
 * own caller id and the backend's static headers still do.
 */
@ServerTest
class GatewayDropsCallerIdentityHeadersTest {

    private static final List<String> IDENTITY_HEADERS = List.of("X-User-Id", "X-Forwarded-User", "X-Forwarded-Email",
            "X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-For", "X-Forwarded-Port", "X-Real-IP");

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent agent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        agent = h.raw(RawAgent.fixed(200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
        h.backend("victim", agent.url())
                .backend(Harness.spec("bound", agent.url(), AgentLimits.DEFAULTS, Map.of("X-User-Id", "service-account"),
                        null, List.of()))
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static RawAgent.Exchange callWithForgedIdentity(String agentId) {
        agent.clear();
        Reply reply = h.http().rpc(agentId, Rpc.send(1, "hi"),
                "X-User-Id", "admin", "X-Forwarded-User", "admin", "X-Forwarded-Email", "admin@example.com",
                "X-Forwarded-Host", "intranet.example.com", "X-Forwarded-Proto", "https", "X-Forwarded-For", "10.0.0.1",
                "X-Forwarded-Port", "443", "X-Real-IP", "10.0.0.1", "X-Custom", "kept");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return agent.next();
    }

    @Test
    void forgedIdentityHeadersNeverReachTheAgent() {
        RawAgent.Exchange seen = callWithForgedIdentity("victim");

        for (String name : IDENTITY_HEADERS) {
            assertThat(seen.header(name)).as(name).isNull();
        }
        assertThat(seen.header("X-Custom")).as("other X- headers are still relayed").isEqualTo("kept");
        assertThat(seen.header("X-Switchboard-Caller-ID")).as("the gateway's own caller id").isEqualTo("127.0.0.1");
    }

    @Test
    void theBackendsOwnIdentityHeaderIsSentNotTheCallers() {
        RawAgent.Exchange seen = callWithForgedIdentity("bound");

        assertThat(seen.headers().getAll("X-User-Id")).containsExactly("service-account");
        assertThat(seen.header("X-Forwarded-User")).isNull();
    }
}
