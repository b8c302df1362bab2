package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.AwaitDefaults;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.policy.CallerLimitSettings;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: the per-caller concurrency cap ({@code callerLimits.maxConcurrency}) over real HTTP. While an agent holds
 * a caller's only slot, its next call is 429 with {@code Retry-After: 1} and -31429 naming the limit, never reaching
 * the agent; another caller is not held back by it; once the held call is answered the slot is free again.
 */
@ServerTest
class CallerConcurrencyTest {

    private static final String CI_KEY = "ci-key-concurrency-0123456789";
    private static final String OPS_KEY = "ops-key-concurrency-0123456789";

    @TempDir
    static Path dir;
    static Harness sb;
    static RawAgent held;

    @BeforeAll
    static void start() {
        sb = new Harness(dir);
        held = sb.raw(RawAgent.silent()); // answers only when the test says so: the slot is held until then
        sb.apiKey("ci-bot", CI_KEY).apiKey("ops", OPS_KEY).backend("held", held.url())
                .gateway(GatewaySettings.DEFAULTS.withCallerLimits(new CallerLimitSettings(null, null, 1)))
                .start();
    }

    @AfterAll
    static void stop() {
        sb.close();
    }

    private static String answer(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}";
    }

    @Test
    void aCallerAtItsConcurrencyCapGets429UntilItsCallInFlightEnds() throws Exception {
        CompletableFuture<Reply> first = sb.http().postAsync("/a2a/held", Rpc.send(1, "slow one"),
                "Authorization", "Bearer " + CI_KEY);
        RawAgent.Exchange inFlight = held.next();

        Reply over = sb.http().rpc("held", Rpc.send(2, "one too many"), "Authorization", "Bearer " + CI_KEY);
        assertThat(over.status()).isEqualTo(429);
        assertThat(over.header("Retry-After")).isEqualTo("1");
        assertThat(over.errorCode()).isEqualTo(-31429);
        assertThat(over.json().path("id").asInt()).isEqualTo(2);
        assertThat(over.errorMessage()).contains("caller ci-bot").contains("concurrency limit");
        assertThat(sb.metrics().sum("switchboard_gateway_rate_limited_total", "agent", "held",
                "limit", "caller_concurrency")).isEqualTo(1);
        assertThat(first).as("the held call is still waiting for its agent").isNotDone();

        // another caller has slots of its own
        CompletableFuture<Reply> other = sb.http().postAsync("/a2a/held", Rpc.send(3, "another caller"),
                "Authorization", "Bearer " + OPS_KEY);
        RawAgent.Exchange othersCall = held.next();
        assertThat(othersCall.body().toString()).contains("another caller");
        othersCall.reply(answer(3));
        assertThat(other.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);

        inFlight.reply(answer(1));
        assertThat(first.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
        await().until(() -> sb.inFlight("held") == 0);
        assertThat(held.exchanges()).as("the refused call never reached the agent").hasSize(2);

        // the slot was given back: the same caller gets through again
        CompletableFuture<Reply> again = sb.http().postAsync("/a2a/held", Rpc.send(4, "again"),
                "Authorization", "Bearer " + CI_KEY);
        held.next().reply(answer(4));
        assertThat(again.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
    }
}
