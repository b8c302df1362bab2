package dev.switchboard.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.store.Database;
import dev.switchboard.store.TestStore;
import dev.switchboard.testing.PostgresTest;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/** Issue 12: an alert group's thread is found again, the first one recorded kept, on SQLite and PostgreSQL. */
@PostgresTest
class TriggerStoreOnBothDialectsTest {

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anAlertGroupKeepsItsFirstThread(TestStore kind, @TempDir Path dir) {
        try (Database db = kind.open(dir)) {
            TriggerStore store = new TriggerStore(new ChatStore(db.dataSource()));
            Instant now = Instant.parse("2025-06-01T09:00:00Z");
            assertThat(store.thread("alerts", "h1")).isEmpty();
            store.record("alerts", "h1", "thread-1", now);
            store.record("alerts", "h1", "thread-2", now.plusSeconds(1));
            store.record("alerts", "h2", "thread-3", now);
            store.record("other", "h1", "thread-4", now);
            assertThat(store.thread("alerts", "h1")).contains("thread-1");
            assertThat(store.thread("alerts", "h2")).contains("thread-3");
            assertThat(store.thread("other", "h1")).contains("thread-4");
        }
    }
}
