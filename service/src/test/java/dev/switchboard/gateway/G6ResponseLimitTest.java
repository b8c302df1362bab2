package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.SseCall;
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
 * G6: response size limit ({@code maxResponseBytes}, 10 MiB): a larger reply becomes -32603
 * {@code response too large}, read no further.
 */
@ServerTest
class G6ResponseLimitTest {

    private static final long MIB = 1024 * 1024;

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent echo;
    static RawAgent endless;
    static RawAgent declared;
    static RawAgent defaultSized;
    static RawAgent bigEvent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        echo = h.agent(TestAgentOptions.echo("echo"));
        endless = h.raw(RawAgent.endless(200 * MIB, 16 * 1024));
        declared = h.raw(RawAgent.fixed(200, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"" + "y".repeat(100_000) + "\"}"));
        defaultSized = h.raw(RawAgent.endless(11 * MIB, 64 * 1024));
        bigEvent = h.raw((req, body, ex) -> {
            RawAgent.openStream().respond(req, body, ex);
            req.response().write("data: {\"n\":1}\n\n");
            req.response().write("data: {\"n\":2,\"big\":\"" + "b".repeat(5000) + "\"}\n\n");
            req.response().end("data: {\"n\":3}\n\n");
        });
        AgentLimits small = Harness.limits(100, 300, 3600, 4096, 300);
        h.backend("small", echo.url(), small)
                .backend("endless", endless.url(), Harness.limits(100, 300, 3600, 64 * 1024, 300))
                .backend("declared", declared.url(), small)
                .backend("default-limit", defaultSized.url(), AgentLimits.DEFAULTS)
                .backend("big-event", bigEvent.url(), small)
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void g6_aReplyWithinTheLimitIsRelayed() {
        Reply reply = h.http().rpc("small", Rpc.send(1, "a short answer"));
        assertThat(reply.json().path("result").path("status").path("state").asText()).isEqualTo("completed");
    }

    @Test
    void g6_aLargerReplyIsMinus32603ResponseTooLarge() {
        Reply reply = h.http().rpc("small", Rpc.send(2, "z".repeat(5000)));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.errorCode()).isEqualTo(-32603);
        assertThat(reply.errorMessage()).startsWith("response too large");
        assertThat(reply.json().path("id").asInt()).isEqualTo(2);
        assertThat(reply.errorData().path("executed").asBoolean(true)).isFalse();
        assertThat(reply.errorData().path("retryable").asBoolean(true)).isFalse();
    }

    @Test
    void g6_aDeclaredLengthOverTheLimitIsRefusedWithoutReadingTheBody() {
        Reply reply = h.http().rpc("declared", Rpc.send(3, "big"));

        assertThat(reply.errorCode()).isEqualTo(-32603);
        assertThat(reply.errorMessage()).startsWith("response too large");
    }

    @Test
    void g6_theReplyIsReadNoFurther() {
        endless.clear();
        Reply reply = h.http().rpc("endless", Rpc.send(4, "never-ending reply"));

        assertThat(reply.errorCode()).isEqualTo(-32603);
        assertThat(reply.errorMessage()).startsWith("response too large");
        RawAgent.Exchange upstream = endless.last();
        // the gateway hung up on the agent instead of draining 200 MiB
        await().untilAsserted(() -> assertThat(upstream.connectionClosed()).isTrue());
        assertThat(upstream.bytesWritten().get()).isLessThan(100 * MIB);
        await().until(() -> h.inFlight("endless") == 0);
    }

    @Test
    void g6_theDefaultLimitIs10MiB() {
        assertThat(AgentLimits.DEFAULTS.maxResponseBytes()).isEqualTo(10 * MIB);

        Reply reply = h.http().rpc("default-limit", Rpc.send(5, "11 MiB reply"));

        assertThat(reply.errorCode()).isEqualTo(-32603);
        assertThat(reply.errorMessage()).startsWith("response too large");
    }

    @Test
    void g6_aStreamEventLargerThanTheLimitEndsTheCall() {
        SseCall call = h.http().stream("/a2a/small", Rpc.stream(6, "/stream 1 0\n" + "s".repeat(5000)));
        call.awaitEnd();

        // the oversized event is never relayed; before any event the caller gets the error as plain JSON-RPC,
        // after one the stream is ended
        assertThat(call.raw().contains("s".repeat(5000))).as("the oversized event was relayed").isFalse();
        if (call.header("Content-Type").startsWith("application/json")) {
            assertThat(call.raw()).contains("response too large");
        }
        await().until(() -> h.inFlight("small") == 0);
    }

    @Test
    void g6_anOversizedEventMidStreamEndsTheStreamWithoutRelayingIt() {
        SseCall call = h.http().stream("/a2a/big-event", Rpc.stream(7, "events"));
        call.awaitEnd();

        assertThat(call.header("Content-Type")).startsWith("text/event-stream");
        assertThat(call.events()).hasSize(1);
        assertThat(call.events().get(0).path("n").asInt()).isEqualTo(1);
        assertThat(call.raw()).doesNotContain("bbbbbbbbbb").doesNotContain("\"n\":3");
        await().until(() -> h.inFlight("big-event") == 0);
    }
}
