package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.testing.PostgresTest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Issue 12: the registry's table on SQLite and PostgreSQL. */
@PostgresTest
class RegistrationStoreOnBothDialectsTest {

    static final Instant T0 = Instant.parse("2025-06-01T09:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aRegistrationIsSavedReplacedKeepingItsFirstTimeAndDeleted(TestStore kind, @TempDir Path dir) {
        try (Database db = kind.open(dir)) {
            SqlRegistrationStore store = new SqlRegistrationStore(db.dataSource());
            store.save(agent("a1", "first", T0, T0));
            store.save(agent("a2", "other", T0, T0.plusMillis(250)));
            store.save(agent("a1", "second", T0.plusSeconds(60), T0.plusSeconds(60)));
            List<RegisteredAgent> all = new ArrayList<>(store.loadAll());
            all.sort(java.util.Comparator.comparing(RegisteredAgent::id));
            assertThat(all).extracting(RegisteredAgent::id).containsExactly("a1", "a2");
            RegisteredAgent a1 = all.get(0);
            assertThat(a1.name()).isEqualTo("second");
            assertThat(a1.registeredAt()).isEqualTo(T0);
            assertThat(a1.lastSeen()).isEqualTo(T0.plusSeconds(60));
            assertThat(a1.skills()).singleElement().extracting(AgentSkill::id).isEqualTo("s1");
            assertThat(a1.origin()).isEqualTo(AgentOrigin.DYNAMIC);
            assertThat(all.get(1).lastSeen()).isEqualTo(T0.plusMillis(250));
            store.delete("a1");
            store.delete("none");
            assertThat(store.loadAll()).extracting(RegisteredAgent::id).containsExactly("a2");
        }
    }

    /** Replicas' reads and writes: one row, a heartbeat that needs the row, and expiry as instants, not as text. */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void loadTouchAndDeleteSeenBeforeCompareInstants(TestStore kind, @TempDir Path dir) {
        try (Database db = kind.open(dir)) {
            SqlRegistrationStore store = new SqlRegistrationStore(db.dataSource());
            // "…09:00:01Z" sorts after "…09:00:01.5Z" as text, before it as an instant
            store.save(agent("whole", "w", T0, T0.plusSeconds(1)));
            store.save(agent("fraction", "f", T0, T0.plusMillis(1500)));
            assertThat(store.load("whole")).get().extracting(RegisteredAgent::lastSeen).isEqualTo(T0.plusSeconds(1));
            assertThat(store.load("none")).isEmpty();
            assertThat(store.touch("none", T0)).isFalse();

            assertThat(store.deleteSeenBefore(T0.plusMillis(1200))).containsExactly("whole");
            assertThat(store.deleteSeenBefore(T0.plusMillis(1200))).isEmpty();
            assertThat(store.touch("fraction", T0.plusSeconds(10))).isTrue();
            assertThat(store.deleteSeenBefore(T0.plusSeconds(5))).isEmpty();
            assertThat(store.loadAll()).extracting(RegisteredAgent::id).containsExactly("fraction");
        }
    }

    /** The registry's race (ConcurrentRegistryWritesStayConsistentTest) on both stores: store and memory agree. */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void writesOfOneIdReleasedAtOnceLeaveStoreAndMemoryAgreeing(TestStore kind, @TempDir Path dir) throws Exception {
        try (Database db = kind.open(dir)) {
            RegistryRace.run(new SqlRegistrationStore(db.dataSource()), 40);
        }
    }

    static RegisteredAgent agent(String id, String name, Instant registered, Instant seen) {
        return new RegisteredAgent(id, name, "http://127.0.0.1:1/", "d", "1", List.of(new AgentSkill("s1", "skill", "",
                List.of("t"), null, null, null)), List.of("text/plain"), List.of("text/plain"), List.of("1.0"), null, null,
                AgentOrigin.DYNAMIC, registered, seen);
    }
}
