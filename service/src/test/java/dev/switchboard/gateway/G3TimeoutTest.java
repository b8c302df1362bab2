package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G3: timeout chain — {@code params.configuration.timeout} (seconds) if present, else the agent's
 * {@code defaultTimeoutSeconds} (300), capped at {@code maxTimeoutSeconds} (3600). When it runs out the
 * caller gets -32001 {@code agent timeout: <id>} and the upstream call is cancelled.
 *
 * <p>Which link of the chain applied is told apart by outcome, not by the clock: the agent answers
 * after a delay that lies between the candidate timeouts, so the call succeeds or times out depending
 * on which timeout the gateway used.
 */
@ServerTest
class G3TimeoutTest {

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent slow;
    static RawAgent silent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        slow = h.agent(TestAgentOptions.echo("slow"));
        silent = h.raw(RawAgent.silent());
        h.backend("short-default", slow.url(), Harness.limits(100, 1, 10, AgentLimits.DEFAULTS.maxResponseBytes(), 300))
                .backend("low-cap", slow.url(), Harness.limits(100, 1, 2, AgentLimits.DEFAULTS.maxResponseBytes(), 300))
                .backend("silent-default", silent.url(), Harness.limits(100, 1, 3600, AgentLimits.DEFAULTS.maxResponseBytes(), 300))
                .backend("silent-long", silent.url(), AgentLimits.DEFAULTS)
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void g3_defaultsAre300SecondsCappedAt3600() {
        assertThat(AgentLimits.DEFAULTS.defaultTimeoutSeconds()).isEqualTo(300);
        assertThat(AgentLimits.DEFAULTS.maxTimeoutSeconds()).isEqualTo(3600);
    }

    @Test
    void g3_withoutAParamTheAgentsDefaultTimeoutApplies() {
        // default 1 s, the agent needs 2.5 s
        Reply reply = h.http().rpc("short-default", Rpc.send(1, "/slow 2500"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.errorCode()).isEqualTo(-32001);
        assertThat(reply.errorMessage()).isEqualTo("agent timeout: short-default");
        assertThat(reply.json().path("id").asInt()).isEqualTo(1);
    }

    @Test
    void g3_theParamWinsOverTheDefault() {
        // default 1 s would time out; the caller's 8 s lets the 2 s task finish, with room for a slow machine
        Reply reply = h.http().rpc("short-default", Rpc.sendWithTimeout(2, "/slow 2000", 8));

        assertThat(reply.json().path("result").path("status").path("state").asText()).isEqualTo("completed");
    }

    @Test
    void g3_aParamAboveTheCapIsLoweredToTheCap() {
        // the caller asks for 99999 s; the cap of 2 s ends the call before the agent's 8 s answer
        Reply reply = h.http().rpc("low-cap", Rpc.sendWithTimeout(3, "/slow 8000", 99999));

        assertThat(reply.errorCode()).isEqualTo(-32001);
        assertThat(reply.errorMessage()).isEqualTo("agent timeout: low-cap");
    }

    @Test
    void g3_aParamBelowTheDefaultShortensTheCall() {
        // the agent's default is 300 s; the caller's 1 s ends the call
        Reply reply = h.http().rpc("silent-long", Rpc.sendWithTimeout("p", "never answered", 1));

        assertThat(reply.errorCode()).isEqualTo(-32001);
        assertThat(reply.errorMessage()).isEqualTo("agent timeout: silent-long");
        assertThat(reply.json().path("id").asText()).isEqualTo("p");
    }

    @Test
    void g3_aStreamThatNeverOpensTimesOutTheSameWay() {
        silent.clear();
        Reply reply = h.http().rpc("silent-default", Rpc.stream(5, "never opened"));

        assertThat(reply.header("Content-Type")).startsWith("application/json");
        assertThat(reply.errorCode()).isEqualTo(-32001);
        assertThat(reply.errorMessage()).isEqualTo("agent timeout: silent-default");
        RawAgent.Exchange upstream = silent.last();
        await().untilAsserted(() -> assertThat(upstream.connectionClosed()).isTrue());
    }

    @Test
    void g3_onTimeoutTheUpstreamRequestIsClosed() {
        silent.clear();
        Reply reply = h.http().rpc("silent-default", Rpc.send(4, "never answered"));

        assertThat(reply.errorCode()).isEqualTo(-32001);
        assertThat(reply.errorMessage()).isEqualTo("agent timeout: silent-default");
        assertThat(reply.errorData().path("executed").asBoolean(true)).isFalse();
        RawAgent.Exchange upstream = silent.last();
        await().untilAsserted(() ->
                assertThat(upstream.connectionClosed()).as("agent-side connection closed").isTrue());
        await().until(() -> h.inFlight("silent-default") == 0);
    }
}
