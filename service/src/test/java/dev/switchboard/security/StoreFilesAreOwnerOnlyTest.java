package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** O7: the store holds chat text and people's emails; other local users cannot read it, whatever the umask. */
class StoreFilesAreOwnerOnlyTest {

    @TempDir
    Path dir;

    @Test
    void aNewStoreAndItsFolderAreOwnerOnly() throws Exception {
        Path file = dir.resolve("data/switchboard.db");
        try (Database db = Database.open("sqlite:" + file)) {
            try (var c = db.dataSource().getConnection(); var st = c.createStatement()) {
                st.execute("SELECT 1"); // the WAL files exist once the database is used
            }
            assertThat(mode(file)).isEqualTo("rw-------");
            assertThat(mode(file.getParent())).isEqualTo("rwx------");
            for (String suffix : new String[] {"-wal", "-shm"}) {
                Path side = file.resolveSibling(file.getFileName() + suffix);
                if (Files.exists(side)) {
                    assertThat(mode(side)).as(side.toString()).isEqualTo("rw-------");
                }
            }
        }
    }

    @Test
    void anExistingWorldReadableStoreIsTightened() throws Exception {
        Path file = dir.resolve("old.db");
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        try (Database db = Database.open("sqlite:" + file)) {
            assertThat(mode(file)).isEqualTo("rw-------");
        }
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
