package dev.switchboard.bridge.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.store.Database;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, lean writes: every statement the bridge runs for an input probes an index. A full scan of a
 * table that grows with history (posts, threads, sessions) makes each step slower than the last, which is
 * how the bridge lost half its throughput over 6,000 threads. SQLite says how it would run each statement
 * ({@code EXPLAIN QUERY PLAN}) on the migrated schema.
 */
class StepQueriesUseIndexesTest {

    /** "SCAN chat_post", also "SCAN chat_post USING INDEX …" (a walk of a whole index is a scan too). */
    private static final Pattern FULL_SCAN =
            Pattern.compile("\\bSCAN (chat_post|chat_thread|chat_session|bridge_session)\\b");

    @TempDir
    Path dir;

    @Test
    void noStatementOfAStepScansAGrowingTable() throws Exception {
        try (Database db = Database.open("sqlite:" + dir.resolve("plan.db"))) {
            List<String> scans = new ArrayList<>();
            try (Connection c = db.dataSource().getConnection()) {
                for (String sql : ChatSql.PER_STEP) {
                    List<String> plan = plan(c, sql);
                    if (sql.contains(" WHERE ")) { // a plain INSERT … VALUES reads nothing and has no plan
                        assertThat(plan).as("a plan for %s", sql).isNotEmpty();
                    }
                    plan.stream().filter(step -> FULL_SCAN.matcher(step).find())
                            .forEach(step -> scans.add(step + "   <- " + sql));
                }
            }
            assertThat(scans).as("full table scans in per-step statements").isEmpty();
        }
    }

    @Test
    void theTurnStateUpdateUsesTheTurnIndex() throws Exception {
        try (Database db = Database.open("sqlite:" + dir.resolve("turn.db")); Connection c = db.dataSource().getConnection()) {
            assertThat(String.join("\n", plan(c, ChatSql.TURN_STATE))).contains("chat_post_turn");
        }
    }

    private static List<String> plan(Connection c, String sql) throws Exception {
        List<String> steps = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
            int n = s.getParameterMetaData().getParameterCount();
            for (int i = 1; i <= n; i++) {
                s.setString(i, "x");
            }
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    steps.add(rs.getString("detail"));
                }
            }
        }
        return steps;
    }
}
