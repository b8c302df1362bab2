package dev.switchboard.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        try {
            Files.createDirectories(file.getParent());
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the store folder " + file.getParent() + ": " + e.getMessage(), e);
        }
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
        return new Database(ds);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
