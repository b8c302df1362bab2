package dev.switchboard.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.store.Database;
import dev.switchboard.store.TestStore;
import dev.switchboard.testing.PostgresTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Issue 26: push configs and the outbox on SQLite and PostgreSQL. */
@PostgresTest
class PushStoreOnBothDialectsTest {

    static PushConfig config(String callback, String task, String configId, long at) {
        return new PushConfig(callback, "agent-a", task, configId, "ci", "1.0", "https://caller.example.com/hook",
                "caller-token", "{\"scheme\":\"Bearer\",\"credentials\":\"abc\"}", "secret-" + callback, at);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void configsAreSavedReplacedByTheirIdListedAndDeleted(TestStore kind, @TempDir Path dir) {
        try (Database db = kind.open(dir)) {
            PushStore store = new PushStore(db.dataSource());
            store.save(config("cb-1", "t-1", "cfg-1", 1));
            store.save(config("cb-2", "t-1", "cfg-2", 2));
            store.save(config("cb-3", "t-2", "cfg-1", 3));
            // the same id again replaces the config, its callback and secret with it
            store.save(config("cb-4", "t-1", "cfg-1", 4));
            assertThat(store.byCallback("cb-1")).isEmpty();
            assertThat(store.byCallback("cb-4")).get().extracting(PushConfig::secret).isEqualTo("secret-cb-4");
            assertThat(store.list("agent-a", "t-1")).extracting(PushConfig::configId).containsExactly("cfg-2", "cfg-1");
            assertThat(store.find("agent-a", "t-2", "cfg-1")).get().extracting(PushConfig::callbackId).isEqualTo("cb-3");
            assertThat(store.delete("agent-a", "t-1", "cfg-2")).isTrue();
            assertThat(store.delete("agent-a", "t-1", "cfg-2")).isFalse();
            assertThat(store.count("agent-a", "t-1")).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theOutboxKeepsANotificationOnceLeasesItAndRecordsItsEnd(TestStore kind, @TempDir Path dir) {
        try (Database db = kind.open(dir)) {
            PushStore store = new PushStore(db.dataSource());
            assertThat(store.enqueue("cb-1", "{\"n\":1}", "application/json", 100)).isTrue();
            assertThat(store.enqueue("cb-1", "{\"n\":1}", "application/json", 150)).as("sent again").isFalse();
            assertThat(store.enqueue("cb-1", "{\"n\":2}", "application/json", 200)).isTrue();
            assertThat(store.enqueue("cb-2", "{\"n\":1}", "application/json", 200)).as("another config").isTrue();

            assertThat(store.takeDue(150, 10_000, 10)).extracting(OutboxEntry::body).containsExactly("{\"n\":1}");
            // leased: a second take (another replica) before the lease ends finds nothing more of it
            assertThat(store.takeDue(250, 10_000, 10)).extracting(OutboxEntry::callbackId).containsExactly("cb-1", "cb-2");
            assertThat(store.takeDue(300, 10_000, 10)).isEmpty();

            OutboxEntry first = store.takeDue(20_000, 30_000, 1).get(0);
            store.delivered(first.id());
            OutboxEntry second = store.takeDue(20_000, 30_000, 1).get(0);
            store.retry(second.id(), 50_000);
            OutboxEntry third = store.takeDue(20_000, 30_000, 1).get(0);
            store.dropped(third.id());
            assertThat(store.takeDue(40_000, 60_000, 10)).isEmpty();
            assertThat(store.takeDue(50_000, 60_000, 10)).singleElement().satisfies(e -> {
                assertThat(e.id()).isEqualTo(second.id());
                assertThat(e.attempts()).isEqualTo(1);
            });
            assertThat(store.count("delivered")).isEqualTo(1);
            assertThat(store.count("dropped")).isEqualTo(1);
            // a delivered notification is still recognised when sent again, until purged
            assertThat(store.enqueue(first.callbackId(), first.body(), "application/json", 60_000)).isFalse();
            assertThat(store.purge(1_000)).isEqualTo(2);
            assertThat(store.enqueue(first.callbackId(), first.body(), "application/json", 60_000)).isTrue();
        }
    }
}
