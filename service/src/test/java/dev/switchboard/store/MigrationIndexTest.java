package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up skips Flyway only for a store that has exactly this code's migrations: the versions are read from the
 * classpath (a folder in tests, the packaged jar in production) and compared with the schema history.
 */
class MigrationIndexTest {

    @TempDir
    Path dir;

    @Test
    void theVersionsAreReadFromAFolderAndFromAJar() throws Exception {
        assertThat(MigrationIndex.known(getClass().getClassLoader(), "db/migration/common"))
                .contains("1", "7").doesNotContain("7.1");
        assertThat(MigrationIndex.known(getClass().getClassLoader(), "db/migration/postgresql")).contains("7.1", "8");

        Path jar = dir.resolve("app.jar");
        try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (String name : new String[] {"db/migration/x/", "db/migration/x/V1__a.sql", "db/migration/x/V2_5__b.sql",
                    "db/migration/x/README.md", "db/migration/x/deeper/V9__no.sql", "db/migration/xy/V8__other.sql"}) {
                zip.putNextEntry(new ZipEntry(name));
                zip.closeEntry();
            }
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            assertThat(MigrationIndex.known(loader, "db/migration/x")).containsExactly("1", "2.5");
        }
    }

    @Test
    void onlyAStoreWithExactlyTheseMigrationsIsUpToDate() throws Exception {
        String store = "sqlite:" + dir.resolve("s.db");
        try (Database db = Database.open(store)) {
            assertThat(MigrationIndex.upToDate(db.dataSource(), "sqlite")).isTrue();
            try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM flyway_schema_history WHERE version = '7'");
            }
            assertThat(MigrationIndex.upToDate(db.dataSource(), "sqlite")).as("one to apply").isFalse();
        }
        try (Database fresh = Database.open("sqlite:" + dir.resolve("fresh.db"))) {
            try (Connection c = fresh.dataSource().getConnection(); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE flyway_schema_history SET success = 0 WHERE version = '3'");
            }
            assertThat(MigrationIndex.upToDate(fresh.dataSource(), "sqlite")).as("a failed one").isFalse();
        }
    }
}
