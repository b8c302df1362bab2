package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.gateway.support.Wait;
import dev.switchboard.store.Database;
import dev.switchboard.store.RegistryRace;
import dev.switchboard.store.SqlRegistrationStore;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: racing registry writes to make the store and the gateway's memory disagree (an agent that
 * is routed but gone after a restart, or one deregistered that comes back). Register, deregister,
 * heartbeat and expiry of the same ids run at once; afterwards the agents the API shows and the rows
 * in the store are the same set.
 */
@ServerTest
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
        try (Database db = Database.open("sqlite:" + dir.resolve("direct.db"))) {
            RegistryRace.run(new SqlRegistrationStore(db.dataSource()), 150);
        }
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
