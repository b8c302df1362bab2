package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: slow exhaustion by churn. Registering, calling and removing agents with ever new ids must
 * not leave their meters (nor their limiters and cached cards) behind: the metrics of an agent go
 * when it is deregistered or expires, so {@code /metrics} and memory do not grow with every id ever seen.
 */
@ServerTest
class RemovedAgentsLeaveNothingBehindTest {

    private static final String REQUESTS = "switchboard_gateway_requests_total";

    @TempDir
    static Path dir;
    @TempDir
    static Path ttlDir;

    static Harness h;
    static RawAgent agent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        agent = h.raw(RawAgent.fixed(200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
        h.start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static void registerAndCall(Harness on, String id) {
        Reply r = on.http().post("/agents/register", "{\"agent_id\":\"" + id + "\",\"name\":\"n\",\"url\":\"" + agent.url() + "\"}");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(on.http().rpc(id, Rpc.send(1, "hi")).status()).isEqualTo(200);
        assertThat(on.http().get("/a2a/" + id + "/.well-known/agent-card.json").status()).isEqualTo(200);
    }

    private static boolean mentioned(Harness on, String id) {
        return on.metrics().text().contains("agent=\"" + id + "\"");
    }

    @Test
    void aDeregisteredAgentsMetersAreDropped() {
        for (int i = 0; i < 5; i++) {
            String id = "churn-" + i;
            registerAndCall(h, id);
            assertThat(h.metrics().sum(REQUESTS, "agent", id)).isEqualTo(1);
            assertThat(h.http().delete("/agents/" + id).status()).isEqualTo(200);
            assertThat(mentioned(h, id)).as(id + " in /metrics after deregistering").isFalse();
        }
    }

    @Test
    void anExpiredAgentsMetersAreDropped() {
        try (Harness ttl = new Harness(ttlDir).registrationTtl(Duration.ofSeconds(2)).start()) {
            registerAndCall(ttl, "expiring");
            await().atMost(Duration.ofSeconds(30)).until(() -> ttl.http().get("/agents/expiring").status() == 404);
            await().atMost(Duration.ofSeconds(30)).until(() -> !mentioned(ttl, "expiring"));
        }
    }
}
