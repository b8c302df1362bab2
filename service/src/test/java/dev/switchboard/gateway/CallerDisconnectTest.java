package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance (G8, KubeMQ burn-in ST09): a caller that disconnects mid-stream frees its concurrency
 * slot within 1 s, and the open-streams gauge drops with it. Nothing waits on a timer for that, so the
 * test asks only that the slot is freed long before the agent's stream would end: a 1 s wall-clock
 * bound would fail on a loaded machine.
 */
@ServerTest
class CallerDisconnectTest {

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent streamer;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        streamer = h.agent(TestAgentOptions.echo("streamer"));
        h.backend("streamer", streamer.url(), AgentLimits.DEFAULTS).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void aCallerDisconnectingMidStreamFreesItsSlotAtOnce() {
        // 500 chunks 200 ms apart: the stream would run for 100 s, far beyond any wait below
        SseCall call = h.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 500 200\na long answer, chunk by chunk"));
        await().until(() -> call.dataFrames().size() >= 3);
        assertThat(call.isEnded()).isFalse();
        assertThat(h.inFlight("streamer")).isEqualTo(1);
        assertThat(h.openStreams("streamer")).isEqualTo(1);

        call.disconnect();

        await().pollInterval(Duration.ofMillis(20)).until(() ->
                h.inFlight("streamer") == 0 && h.openStreams("streamer") == 0);
        assertThat(h.metrics().sum("switchboard_gateway_requests_total", "agent", "streamer",
                "outcome", "caller_disconnected")).isEqualTo(1);
    }
}
