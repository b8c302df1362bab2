package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.config.Compat;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
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
 * Threat: a caller passes itself off as another caller (issue 22, M4). The header that names the caller to the
 * agent ({@code callerIdHeader}: {@code X-Switchboard-Caller-ID}, {@code X-KubeMQ-Caller-ID} under
 * {@code compat: kubemq}, or the operator's own name) is the gateway's alone: a caller's copy of it, or of
 * either well-known caller-id name (an agent written for the other gateway believes that one), never reaches
 * the agent, and the gateway's value is the only one the agent sees, whatever else the backend's static headers
 * set.
 */
@ServerTest
class CallerIdHeaderIsAlwaysOursTest {

    private static final String KEY = "caller-key-0123456789";

    @TempDir
    static Path plainDir;
    @TempDir
    static Path kubemqDir;
    @TempDir
    static Path customDir;

    static Harness plain;
    static Harness kubemq;
    static Harness custom;
    static RawAgent agent;

    @BeforeAll
    static void start() {
        plain = new Harness(plainDir);
        agent = plain.raw(RawAgent.fixed(200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
        plain.backend("victim", agent.url())
                .backend(Harness.spec("claims", agent.url(), AgentLimits.DEFAULTS,
                        Map.of("X-Switchboard-Caller-ID", "static-claim"), null, List.of()))
                .start();
        kubemq = new Harness(kubemqDir).compat(Compat.KUBEMQ).backend("victim", agent.url()).start();
        custom = new Harness(customDir).callerIdHeader("X-Who").apiKey("ci-bot", KEY).backend("victim", agent.url()).start();
    }

    @AfterAll
    static void stop() {
        custom.close();
        kubemq.close();
        plain.close();
    }

    private static final String[] FORGED = {"X-Switchboard-Caller-ID", "admin", "x-switchboard-caller-id", "admin2",
        "X-KubeMQ-Caller-ID", "admin3", "x-kubemq-caller-id", "admin4", "X-Who", "admin5"};

    private static RawAgent.Exchange call(Harness h, String agentId, String... extra) {
        agent.clear();
        String[] headers = new String[FORGED.length + extra.length];
        System.arraycopy(FORGED, 0, headers, 0, FORGED.length);
        System.arraycopy(extra, 0, headers, FORGED.length, extra.length);
        assertThat(h.http().rpc(agentId, Rpc.send(1, "who am I"), headers).status()).isEqualTo(200);
        return agent.next();
    }

    @Test
    void switchboardsOwnNameCarriesOnlyTheGatewaysValue() {
        RawAgent.Exchange seen = call(plain, "victim");
        assertThat(seen.headers().getAll("X-Switchboard-Caller-ID")).containsExactly("127.0.0.1");
        assertThat(seen.header("X-KubeMQ-Caller-ID")).as("KubeMQ's name, which a KubeMQ agent believes").isNull();
        assertThat(seen.header("X-Who")).as("not a caller id here: a plain X- header").isEqualTo("admin5");
    }

    @Test
    void underKubemqCompatKubemqsNameCarriesOnlyTheGatewaysValue() {
        RawAgent.Exchange seen = call(kubemq, "victim");
        assertThat(seen.headers().getAll("X-KubeMQ-Caller-ID")).containsExactly("127.0.0.1");
        assertThat(seen.header("X-Switchboard-Caller-ID")).isNull();
    }

    @Test
    void anOperatorsOwnNameCarriesTheKeysName() {
        RawAgent.Exchange seen = call(custom, "victim", "Authorization", "Bearer " + KEY);
        assertThat(seen.headers().getAll("X-Who")).containsExactly("ci-bot");
        assertThat(seen.header("X-Switchboard-Caller-ID")).isNull();
        assertThat(seen.header("X-KubeMQ-Caller-ID")).isNull();
    }

    @Test
    void aBackendsStaticHeadersCannotSetTheCallerId() {
        RawAgent.Exchange seen = call(plain, "claims");
        assertThat(seen.headers().getAll("X-Switchboard-Caller-ID")).containsExactly("127.0.0.1");
    }
}
