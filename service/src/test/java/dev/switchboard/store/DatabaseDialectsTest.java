package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.testing.PostgresTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12: opening a store. PostgreSQL's URL, its password (never shown), sslmode passed to the driver; a store
 * whose schema is newer than this code refused on both; a SQLite file migrated before the migrations moved to
 * db/migration/common opens as before.
 */
@PostgresTest
class DatabaseDialectsTest {

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aStoreMigratedByANewerReleaseIsRefusedWithAClearMessage(TestStore kind, @TempDir Path dir) throws Exception {
        String url = kind.url(dir);
        try (Database db = Database.open(url); Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            // what a newer release's migration leaves in the schema history
            s.executeUpdate("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, "
                    + "checksum, installed_by, installed_on, execution_time, success) VALUES (100, '99', 'from the future', "
                    + "'SQL', 'V99__from_the_future.sql', 1, 'test', CURRENT_TIMESTAMP, 1, " + (kind == TestStore.SQLITE
                            ? "1" : "true") + ")");
        }
        assertThatThrownBy(() -> Database.open(url))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the store's schema is newer than this Switchboard")
                .hasMessageContaining("99 (from the future)");
    }

    @Test
    void aSqliteStoreMigratedFromTheOldFolderOpensAsBefore(@TempDir Path dir) throws Exception {
        // before issue 12 the migrations were in db/migration itself: the schema history names the same scripts
        Path old = Files.createDirectories(dir.resolve("old"));
        try (var files = Files.list(Path.of("src/main/resources/db/migration/common"))) {
            for (Path f : files.toList()) {
                Files.copy(f, old.resolve(f.getFileName()));
            }
        }
        Path file = dir.resolve("old.db");
        Flyway.configure().dataSource("jdbc:sqlite:" + file, null, null).locations("filesystem:" + old).load().migrate();
        try (Database db = Database.open("sqlite:" + file)) {
            assertThat(db.dialect()).isEqualTo(Database.Dialect.SQLITE);
            new SqlRegistrationStore(db.dataSource()).loadAll();
        }
    }

    @Test
    void aPasswordIsGivenApartFromTheUrlAndNeverShown() {
        TestPostgres pg = TestPostgres.get();
        String database = pg.newDatabase().replaceAll(".*/([^?]+)\\?.*", "$1");
        String url = pg.storeUrl(database, TestPostgres.PASSWORD_USER);
        try (Database db = Database.open(url, TestPostgres.PASSWORD)) {
            assertThat(new SqlRegistrationStore(db.dataSource()).loadAll()).isEmpty();
        }
        String wrong = "wrong-" + TestPostgres.PASSWORD;
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Throwable failure;
        try {
            System.setOut(new PrintStream(printed, true));
            System.setErr(new PrintStream(printed, true));
            failure = org.assertj.core.api.Assertions.catchThrowable(() -> Database.open(url, wrong));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        assertThat(failure).hasMessageContaining("cannot connect to the store " + url)
                .hasMessageContaining("password authentication failed");
        for (Throwable t = failure; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).doesNotContain(wrong);
            assertThat(t.toString()).doesNotContain(wrong);
        }
        assertThat(printed.toString()).doesNotContain(wrong);
    }

    @Test
    void aPasswordInTheUrlIsRefusedWithoutRepeatingIt() {
        String secret = "s3cr3t-in-url";
        assertThatThrownBy(() -> Database.open("postgresql://127.0.0.1:1/db?user=u&password=" + secret))
                .hasMessageContaining("must not hold the password").message().doesNotContain(secret);
        assertThatThrownBy(() -> Database.open("postgresql://u:" + secret + "@127.0.0.1:1/db"))
                .hasMessageContaining("must not hold a user or password").message().doesNotContain(secret);
        assertThatThrownBy(() -> Database.open("postgres://u:" + secret + "@127.0.0.1:1/db"))
                .hasMessageContaining("unsupported store").message().doesNotContain(secret);
        assertThat(Database.redact("postgresql://h/db?user=u&password=" + secret)).doesNotContain(secret);
    }

    @Test
    void sslmodeGoesToTheDriver() {
        TestPostgres pg = TestPostgres.get();
        String url = pg.newDatabase();
        try (Database db = Database.open(url + "&sslmode=disable")) {
            assertThat(db.dialect()).isEqualTo(Database.Dialect.POSTGRESQL);
        }
        // the test server has no TLS: a store that requires it is refused, so the setting reached the driver
        assertThatThrownBy(() -> Database.open(url + "&sslmode=require"))
                .hasMessageContaining("cannot connect to the store").hasMessageContaining("SSL");
    }

    @Test
    void aMissingServerIsNamedInTheMessage() {
        assertThatThrownBy(() -> Database.open("postgresql://127.0.0.1:1/nothing?user=u&connectTimeout=2", "pw-xyz-123"))
                .hasMessageContaining("cannot connect to the store postgresql://127.0.0.1:1/nothing")
                .message().doesNotContain("pw-xyz-123");
    }
}
