package dev.switchboard.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The embedded store (O2): a SQLite file, its schema brought up to date by Flyway migrations at
 * start. Calls block: callers run them on worker threads, never on an event loop.
 */
public final class Database implements AutoCloseable {

    private final HikariDataSource dataSource;

    private Database(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Opens {@code sqlite:PATH}, creating the file and its folder when missing, and migrates it. */
    public static Database open(String store) {
        if (!store.startsWith("sqlite:")) {
            throw new IllegalArgumentException("unsupported store '" + store + "': use sqlite:PATH");
        }
        Path file = Path.of(store.substring("sqlite:".length())).toAbsolutePath();
        ownerOnly(file);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:sqlite:" + file);
        config.setPoolName("switchboard-store");
        // SQLite has one writer at a time; a small pool plus WAL and a busy timeout keeps writers from failing
        config.setMaximumPoolSize(4);
        config.addDataSourceProperty("journal_mode", "WAL");
        config.addDataSourceProperty("busy_timeout", "10000");
        // transactions take the write lock when they begin: one that reads first (SELECT MAX(seq) before an INSERT)
        // would otherwise fail with SQLITE_BUSY at once, without the busy timeout, when another writer went first
        config.addDataSourceProperty("transaction_mode", "IMMEDIATE");
        config.addDataSourceProperty("synchronous", "NORMAL");
        config.addDataSourceProperty("foreign_keys", "true");
        HikariDataSource ds = new HikariDataSource(config);
        try {
            Flyway.configure()
                    .dataSource(ds)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
        // SQLite gives its -wal and -shm files the database's mode; tighten any left from an older start
        for (String suffix : new String[] {"-wal", "-shm"}) {
            Path side = file.resolveSibling(file.getFileName() + suffix);
            if (Files.exists(side)) {
                restrict(side, OWNER_FILE);
            }
        }
        return new Database(ds);
    }

    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

    /**
     * The store holds chat text, people's emails and registrations: its file is readable by its owner only
     * (0600), whatever the umask, and a folder we create for it is 0700.
     */
    private static void ownerOnly(Path file) {
        Path dir = file.getParent();
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir);
                restrict(dir, OWNER_DIR);
            }
            if (!Files.exists(file)) {
                if (posix(dir)) {
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_FILE));
                } else {
                    Files.createFile(file);
                }
            } else {
                restrict(file, OWNER_FILE);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the store " + file + ": " + e.getMessage(), e);
        }
    }

    private static void restrict(Path path, Set<PosixFilePermission> permissions) {
        if (!posix(path)) {
            return;
        }
        try {
            Files.setPosixFilePermissions(path, permissions);
        } catch (IOException e) {
            throw new IllegalStateException("cannot restrict the permissions of " + path + ": " + e.getMessage(), e);
        }
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    public DataSource dataSource() {
        return dataSource;
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
