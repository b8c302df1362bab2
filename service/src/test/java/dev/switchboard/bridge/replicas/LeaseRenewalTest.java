package dev.switchboard.bridge.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.SessionLeases;
import dev.switchboard.store.Database;
import dev.switchboard.store.TestPostgres;
import dev.switchboard.testing.PostgresTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A replica renews its leases while its own commits hold some of them ({@code FOR SHARE}, the commit's fence): found by
 * the replica soak, where the renewal (locking the rows one by one) and a commit fencing two threads in the other
 * order deadlocked; PostgreSQL then aborted one of them after a second, failing either the renewal or every step of
 * the commit's batch ("store write failed").
 */
@PostgresTest
class LeaseRenewalTest {

    private static final String FENCE =
            "SELECT 1 FROM bridge_lease WHERE thread_id = ? AND owner = ? AND expires_at > now() FOR SHARE";

    @Test
    void renewingWhileACommitHoldsTheFenceOfSomeLeasesNeitherDeadlocksNorLosesThem() throws Exception {
        ExecutorService renewer = Executors.newSingleThreadExecutor();
        try (Database db = Database.open(TestPostgres.get().newDatabase())) {
            SessionLeases leases = new SessionLeases(db.dataSource(), Duration.ofSeconds(30));
            assertThat(leases.acquire("t1")).isTrue();
            assertThat(leases.acquire("t2")).isTrue();
            try (Connection commit = db.dataSource().getConnection()) {
                commit.setAutoCommit(false);
                assertThat(fence(commit, "t2", leases.replicaId())).isTrue();
                Future<Set<String>> renewal = renewer.submit(leases::renew);
                Thread.sleep(300); // the renewal waits for t2's row (before the fix: holding t1's)
                assertThat(fence(commit, "t1", leases.replicaId())).as("the commit's fence of t1").isTrue();
                commit.commit();
                assertThat(renewal.get(20, TimeUnit.SECONDS)).as("leases lost by the renewal").isEmpty();
            }
            assertThat(leases.held()).containsExactlyInAnyOrder("t1", "t2");
            // and a renewal with no commit in the way keeps them too
            assertThat(leases.renew()).isEmpty();
            leases.close();
        } finally {
            renewer.shutdownNow();
        }
    }

    private static boolean fence(Connection c, String threadId, String owner) throws Exception {
        try (PreparedStatement s = c.prepareStatement(FENCE)) {
            s.setString(1, threadId);
            s.setString(2, owner);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }
}
