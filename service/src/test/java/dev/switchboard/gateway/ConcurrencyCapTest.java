package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance (G4, KubeMQ burn-in L01): 101 concurrent calls to a slow agent with the default cap of
 * 100 — exactly one is rejected at once with -32603 busy, the other 100 succeed, and the in-flight
 * gauge is back to 0 afterwards.
 */
@ServerTest
class ConcurrencyCapTest {

    private static final int CALLS = 101;

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent slow;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        slow = h.agent(TestAgentOptions.echo("slow"));
        h.backend("slow", slow.url(), AgentLimits.DEFAULTS).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void oneHundredAndOneConcurrentCallsToASlowAgentWithCap100() throws Exception {
        assertThat(AgentLimits.DEFAULTS.maxConcurrency()).isEqualTo(100);
        // the order in which replies come back: the rejection must come before any of the slow successes
        ConcurrentLinkedQueue<Reply> completionOrder = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Reply>> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            CompletableFuture<Reply> call = h.http().postAsync("/a2a/slow", Rpc.send(i, "/slow 3000\ncall " + i));
            calls.add(call.whenComplete((reply, error) -> {
                if (reply != null) {
                    completionOrder.add(reply);
                }
            }));
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        List<Reply> replies = calls.stream().map(CompletableFuture::join).toList();
        List<Reply> rejected = replies.stream().filter(r -> r.json().has("error")).toList();
        List<Reply> succeeded = replies.stream()
                .filter(r -> "completed".equals(r.json().path("result").path("status").path("state").asText()))
                .toList();
        assertThat(rejected).hasSize(1);
        assertThat(succeeded).hasSize(100);
        Reply busy = rejected.get(0);
        assertThat(busy.errorCode()).isEqualTo(-32603);
        assertThat(busy.errorMessage()).isEqualTo("server busy: slow has 100 calls in flight");
        assertThat(busy.errorData().path("retryable").asBoolean()).isTrue();
        assertThat(busy.header("Retry-After")).isEqualTo("1");
        // at once: answered before the first of the 100 slow calls had finished
        assertThat(completionOrder.peek()).isSameAs(busy);
        // the rejected call never reached the agent
        assertThat(slow.recorder().rpcRequests()).hasSize(100);

        await().until(() -> h.inFlight("slow") == 0);
        assertThat(h.metrics().sum("switchboard_gateway_rejections_total", "agent", "slow")).isEqualTo(1);
    }
}
