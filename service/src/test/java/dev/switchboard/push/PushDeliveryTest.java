package dev.switchboard.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.registry.EgressPolicy;
import dev.switchboard.store.Database;
import dev.switchboard.testing.ServerTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26: the outbox delivered to a caller's URL. Time is a virtual clock moved by the test, and each pass is run
 * by the test: no wall-clock window decides anything. The receiver is a real HTTP server; "down" is 503.
 */
@ServerTest
class PushDeliveryTest {

    record Received(String body, String token, String authorization, String type) {}

    @TempDir
    Path dir;

    Vertx vertx;
    HttpServer receiver;
    HttpClientAgent client;
    final List<Received> received = new CopyOnWriteArrayList<>();
    final AtomicInteger answer = new AtomicInteger(200);
    final AtomicLong now = new AtomicLong(1_000_000);
    SimpleMeterRegistry meters;
    String store;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        receiver = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            received.add(new Received(b.toString(), req.getHeader("X-A2A-Notification-Token"),
                    req.getHeader("Authorization"), req.getHeader("Content-Type")));
            req.response().setStatusCode(answer.get()).end();
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client = vertx.createHttpClient();
        meters = new SimpleMeterRegistry();
        store = "sqlite:" + dir.resolve("push.db");
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private PushDelivery delivery(Database db, PushSettings settings) {
        return new PushDelivery(vertx, client, new PushStore(db.dataSource()), EgressPolicy.of(List.of()),
                settings, new PushMetrics(meters), now::get);
    }

    private PushConfig config(String callback, String url) {
        return new PushConfig(callback, "agent-a", "t-1", "cfg-" + callback, "ci", "0.3", url, "caller-token",
                "{\"schemes\":[\"Bearer\"],\"credentials\":\"abc\"}", "secret", 0);
    }

    private String url() {
        return "http://127.0.0.1:" + receiver.actualPort() + "/hook";
    }

    private int pass(PushDelivery d) throws Exception {
        return d.pass().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private double count(String name) {
        return meters.counter("switchboard_gateway_push_" + name + "_total").count();
    }

    @Test
    void aReceiverDownThenUpReceivesEveryNotificationExactlyOnceAlsoAcrossARestart() throws Exception {
        try (Database db = Database.open(store)) {
            PushStore s = new PushStore(db.dataSource());
            s.save(config("cb-1", url()));
            for (int i = 1; i <= 3; i++) {
                assertThat(s.enqueue("cb-1", "{\"n\":" + i + "}", "application/json", now.get())).isTrue();
            }
            assertThat(s.enqueue("cb-1", "{\"n\":2}", "application/json", now.get())).as("the agent sent it again").isFalse();
            answer.set(503);
            PushDelivery d = delivery(db, PushSettings.DEFAULTS);
            assertThat(pass(d)).isZero();
            assertThat(received).hasSize(3);
            assertThat(count("retried")).isEqualTo(3);
            // before the backoff has passed nothing is tried again
            now.addAndGet(500);
            assertThat(pass(d)).isZero();
            assertThat(received).hasSize(3);
        }
        // Switchboard restarts: the outbox is in the store
        answer.set(200);
        now.addAndGet(60_000);
        try (Database db = Database.open(store)) {
            PushDelivery d = delivery(db, PushSettings.DEFAULTS);
            assertThat(pass(d)).isEqualTo(3);
            now.addAndGet(3_600_000 - 1);
            assertThat(pass(d)).isZero();
        }
        List<Received> delivered = received.subList(3, received.size());
        assertThat(delivered).extracting(Received::body).containsExactlyInAnyOrder("{\"n\":1}", "{\"n\":2}", "{\"n\":3}");
        assertThat(delivered).allSatisfy(r -> {
            assertThat(r.token()).isEqualTo("caller-token");
            assertThat(r.authorization()).isEqualTo("Bearer abc");
            assertThat(r.type()).isEqualTo("application/json");
        });
        assertThat(count("delivered")).isEqualTo(3);
        assertThat(count("dropped")).isZero();
    }

    @Test
    void aNotificationIsDroppedAfterItsLastAttempt() throws Exception {
        try (Database db = Database.open(store)) {
            PushStore s = new PushStore(db.dataSource());
            s.save(config("cb-1", url()));
            s.enqueue("cb-1", "{}", "application/json", now.get());
            answer.set(500);
            PushSettings three = new PushSettings(Duration.ofSeconds(1), Duration.ofSeconds(4), 3, Duration.ofSeconds(10),
                    10, Duration.ofHours(1), 1024);
            PushDelivery d = delivery(db, three);
            for (int i = 0; i < 5; i++) {
                pass(d);
                now.addAndGet(10_000);
            }
            assertThat(received).hasSize(3);
            assertThat(count("retried")).isEqualTo(2);
            assertThat(count("dropped")).isEqualTo(1);
            assertThat(s.count("dropped")).isEqualTo(1);
        }
    }

    @Test
    void aUrlAtARefusedAddressOrAConfigGoneIsDroppedAndNothingIsSent() throws Exception {
        try (Database db = Database.open(store)) {
            PushStore s = new PushStore(db.dataSource());
            s.save(config("cb-meta", "http://169.254.169.254/latest/meta-data"));
            s.enqueue("cb-meta", "{}", "application/json", now.get());
            s.enqueue("cb-gone", "{}", "application/json", now.get());
            pass(delivery(db, PushSettings.DEFAULTS));
            assertThat(received).isEmpty();
            assertThat(count("dropped")).isEqualTo(2);
        }
    }

    @Test
    void theBackoffDoublesUpToItsLimit() {
        PushSettings s = new PushSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 9, Duration.ofSeconds(1), 1,
                Duration.ofHours(1), 1);
        assertThat(List.of(1, 2, 3, 4, 5, 6)).extracting(s::backoffMillis)
                .containsExactly(1_000L, 2_000L, 4_000L, 8_000L, 10_000L, 10_000L);
    }

    @Test
    void credentialsAreSentInEitherVersionsShape() {
        assertThat(PushDelivery.authorization("{\"scheme\":\"Bearer\",\"credentials\":\"x\"}")).contains("Bearer x");
        assertThat(PushDelivery.authorization("{\"schemes\":[\"Basic\"],\"credentials\":\"y\"}")).contains("Basic y");
        assertThat(PushDelivery.authorization("{\"schemes\":[\"Bearer\"]}")).isEmpty();
        assertThat(PushDelivery.authorization(null)).isEmpty();
    }
}
