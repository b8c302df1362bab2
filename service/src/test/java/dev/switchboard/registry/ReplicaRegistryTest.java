package dev.switchboard.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.store.TestPostgres;
import dev.switchboard.testing.PostgresTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, points 5 and 6: two replicas on one PostgreSQL store share the registry — a registration on one routes
 * on the other at once (NOTIFY; the test waits generously, as a loaded machine is slow), a deregistration on one
 * stops routing on the other, a heartbeat on one keeps the agent on both, and the TTL expiry removes it from both — while two Switchboards on one SQLite file refuse.
 */
@ServerTest
@PostgresTest
class ReplicaRegistryTest {

    @TempDir
    static Path dirA;
    @TempDir
    static Path dirB;

    static Harness a;
    static Harness b;
    static TestAgent echo;
    static String store;

    @BeforeAll
    static void start() {
        store = TestPostgres.get().newDatabase();
        a = new Harness(dirA);
        echo = a.agent(TestAgentOptions.echo("echo"));
        a.store(store).registrationTtl(Duration.ofSeconds(3)).start();
        b = new Harness(dirB).store(store).registrationTtl(Duration.ofSeconds(3)).start();
    }

    @AfterAll
    static void stop() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    private static String registration(String id) {
        return "{\"agent_id\":\"" + id + "\",\"name\":\"Agent " + id + "\",\"url\":\"" + echo.url() + "\"}";
    }

    private static boolean routes(TestHttp http, String id) {
        return http.rpc(id, Rpc.send(1, "hello")).json().path("result").path("status").path("state").asText()
                .equals("completed");
    }

    private static boolean notFound(TestHttp http, String id) {
        return http.rpc(id, Rpc.send(1, "hello")).json().path("error").path("code").asInt() == -32002;
    }

    @Test
    void aRegistrationOnOneReplicaRoutesOnTheOtherAndADeregistrationStopsIt() {
        assertThat(notFound(b.http(), "shared-echo")).isTrue();
        assertThat(a.http().post("/agents/register", registration("shared-echo")).status()).isEqualTo(200);

        await().pollInterval(Duration.ofMillis(20))
                .until(() -> routes(b.http(), "shared-echo"));
        assertThat(b.http().get("/agents/shared-echo").json().path("name").asText()).isEqualTo("Agent shared-echo");

        // a change on A (a new name) is seen on B too
        assertThat(a.http().post("/agents/register", registration("shared-echo").replace("Agent shared-echo", "Renamed"))
                .status()).isEqualTo(200);
        await().pollInterval(Duration.ofMillis(20))
                .until(() -> b.http().get("/agents/shared-echo").json().path("name").asText().equals("Renamed"));

        assertThat(b.http().delete("/agents/shared-echo").status()).isEqualTo(200);
        await().pollInterval(Duration.ofMillis(20))
                .until(() -> notFound(a.http(), "shared-echo"));
        assertThat(a.http().get("/agents/shared-echo").status()).isEqualTo(404);
    }

    @Test
    void heartbeatsOnOneReplicaKeepTheAgentOnBothAndTheTtlExpiresItOnBoth() throws Exception {
        assertThat(a.http().post("/agents/register", registration("beating-echo")).status()).isEqualTo(200);
        assertThat(a.http().post("/agents/register", registration("silent-echo")).status()).isEqualTo(200);
        await().until(() -> routes(b.http(), "beating-echo"));
        Instant registered = Instant.parse(a.http().get("/agents/beating-echo").json().path("last_seen").asText());

        // heartbeats on B only, for longer than two TTLs: A keeps routing, and sees last_seen move
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(7000);
        while (System.nanoTime() < until) {
            assertThat(b.http().post("/agents/heartbeat", "{\"agent_id\":\"beating-echo\"}").status()).isEqualTo(200);
            Thread.sleep(200);
        }
        assertThat(routes(a.http(), "beating-echo")).isTrue();
        assertThat(Instant.parse(a.http().get("/agents/beating-echo").json().path("last_seen").asText()))
                .isAfter(registered.plusSeconds(5));
        // the silent one expired, on both
        assertThat(notFound(a.http(), "silent-echo")).isTrue();
        assertThat(notFound(b.http(), "silent-echo")).isTrue();

        // heartbeats stop: the TTL removes it from both replicas and from the store
        await().atMost(Duration.ofSeconds(30)).until(() -> notFound(a.http(), "beating-echo")
                && notFound(b.http(), "beating-echo"));
        assertThat(a.http().post("/agents/heartbeat", "{\"agent_id\":\"beating-echo\"}").status()).isEqualTo(400);
        try (Connection c = DriverManager.getConnection("jdbc:" + store); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM agent_registration WHERE agent_id LIKE '%-echo'")) {
            rs.next();
            assertThat(rs.getInt(1)).isZero();
        }
    }

    @Test
    void aReplicaStartedLaterSeesWhatIsAlreadyRegistered(@TempDir Path dirC) {
        assertThat(a.http().post("/agents/register", registration("early-echo")).status()).isEqualTo(200);
        try (Harness c = new Harness(dirC).store(store).registrationTtl(Duration.ofSeconds(2)).start()) {
            assertThat(routes(c.http(), "early-echo")).isTrue();
        }
        assertThat(a.http().delete("/agents/early-echo").status()).isEqualTo(200);
    }

    @Test
    void twoSwitchboardsOnOneSqliteFileRefuseToStart(@TempDir Path dir) throws Exception {
        try (Harness first = new Harness(dir).start()) {
            Harness second = new Harness(dir);
            try {
                assertThatThrownBy(second::start)
                        .hasStackTraceContaining("another Switchboard is already running on the store")
                        .hasStackTraceContaining("postgresql://");
            } finally {
                second.close();
            }
            // another process holding the lock file is refused the same way (a lock of this JVM on it overlaps: the
            // same refusal); the first one is unharmed
            assertThat(first.http().get("/agents").status()).isEqualTo(200);
        }
        // once the first stopped, the file is free again
        try (Harness again = new Harness(dir).start()) {
            assertThat(again.http().get("/agents").status()).isEqualTo(200);
        }
        // a lock held outside Switchboard (as another process would hold it) refuses too
        try (FileChannel ch = FileChannel.open(dir.resolve("switchboard.db.lock"), StandardOpenOption.WRITE);
                var held = ch.lock()) {
            Vertx vertx = Vertx.vertx();
            try {
                Harness h = new Harness(dir);
                assertThatThrownBy(() -> SwitchboardFixture.builder().vertx(vertx).config(h.config()).start())
                        .hasStackTraceContaining("another Switchboard is already running");
                h.close();
            } finally {
                vertx.close();
            }
        }
    }
}
