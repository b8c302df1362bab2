package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.gateway.support.Wait;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.store.Database;
import dev.switchboard.store.SqlRegistrationStore;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: racing registry writes to make the store and the gateway's memory disagree (an agent that
 * is routed but gone after a restart, or one deregistered that comes back). Register, deregister,
 * heartbeat and expiry of the same ids run at once; afterwards the agents the API shows and the rows
 * in the store are the same set.
 */
class ConcurrentRegistryWritesStayConsistentTest {

    private static final int IDS = 4;
    private static final int ROUNDS = 40;

    private static String body(String id) {
        return "{\"agent_id\":\"" + id + "\",\"name\":\"n\",\"url\":\"http://127.0.0.1:1/\"}";
    }

    /** One round: every kind of write for every id, all sent before any is answered. */
    private static void storm(TestHttp http) {
        List<Future<Reply>> all = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < IDS; i++) {
                String id = "race-" + i;
                all.add(http.send(HttpMethod.POST, "/agents/register", body(id)));
                all.add(http.send(HttpMethod.POST, "/agents/deregister", "{\"agent_id\":\"" + id + "\"}"));
                all.add(http.send(HttpMethod.POST, "/agents/heartbeat", "{\"agent_id\":\"" + id + "\"}"));
                all.add(http.send(HttpMethod.DELETE, "/agents/" + id, null));
                all.add(http.send(HttpMethod.POST, "/agents/register", body(id)));
            }
        }
        for (Future<Reply> f : all) {
            assertThat(Wait.on(f, 60).status()).isLessThan(500);
        }
    }

    private static Set<String> dynamicInMemory(Harness h) {
        Set<String> ids = new TreeSet<>();
        for (JsonNode a : h.http().get("/agents").json().path("agents")) {
            if (a.path("source").asText().equals("dynamic")) {
                ids.add(a.path("agent_id").asText());
            }
        }
        return ids;
    }

    private static Set<String> inStore(Path dir) throws SQLException {
        Set<String> ids = new TreeSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("switchboard.db"));
                ResultSet rs = c.createStatement().executeQuery("SELECT agent_id FROM agent_registration")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    @Test
    void registerDeregisterAndHeartbeatOfOneIdAtOnceLeaveStoreAndMemoryAgreeing(@TempDir Path dir) throws Exception {
        try (Harness h = new Harness(dir).start()) {
            for (int i = 0; i < 3; i++) {
                storm(h.http());
                assertThat(inStore(dir)).as("store after storm " + i).isEqualTo(dynamicInMemory(h));
            }
        }
    }

    /**
     * The same race without HTTP in between, so that the writes really overlap: in each round eight
     * threads released at once register, heartbeat, deregister and expire one id on the registry and
     * its real SQLite store; after each round the two must agree about that id.
     */
    @Test
    void writesOfOneIdReleasedAtOnceNeverLeaveStoreAndMemoryApart(@TempDir Path dir) throws Exception {
        int threads = 8;
        try (Database db = Database.open("sqlite:" + dir.resolve("direct.db"))) {
            SqlRegistrationStore store = new SqlRegistrationStore(db.dataSource());
            AgentRegistry registry = new AgentRegistry(store, Duration.ofMillis(1), 1000);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                for (int round = 0; round < 150; round++) {
                    String id = "race-" + round;
                    registry.register(agent(id, Instant.now()), Instant.now());
                    CyclicBarrier start = new CyclicBarrier(threads);
                    List<java.util.concurrent.Future<?>> work = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        int kind = (t + round) % 4;
                        work.add(pool.submit(() -> {
                            start.await(30, TimeUnit.SECONDS);
                            Instant now = Instant.now();
                            switch (kind) {
                                case 0 -> registry.register(agent(id, now), now);
                                case 1 -> registry.deregister(id);
                                case 2 -> registry.heartbeat(id, now);
                                default -> registry.expire(now.plusSeconds(1));
                            }
                            return null;
                        }));
                    }
                    for (java.util.concurrent.Future<?> f : work) {
                        f.get(60, TimeUnit.SECONDS);
                    }
                    boolean inMemory = registry.find(id).isPresent();
                    boolean stored = store.loadAll().stream().anyMatch(a -> a.id().equals(id));
                    assertThat(stored).as("round " + round + ": stored vs in memory (" + inMemory + ")").isEqualTo(inMemory);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static RegisteredAgent agent(String id, Instant now) {
        return new RegisteredAgent(id, "n", "http://127.0.0.1:1/", "", "", List.of(), List.of(), List.of(), List.of(),
                null, null, AgentOrigin.DYNAMIC, now, now);
    }

    @Test
    void expiryRacingRegistrationsLeavesNoRowBehind(@TempDir Path dir) throws Exception {
        try (Harness h = new Harness(dir).registrationTtl(Duration.ofMillis(300)).start()) {
            for (int i = 0; i < 3; i++) {
                storm(h.http());
            }
            // everything left expires; a row the expiry missed would come back at the next start
            await().atMost(Duration.ofSeconds(30)).until(() -> dynamicInMemory(h).isEmpty());
            assertThat(inStore(dir)).isEmpty();
        }
    }
}
