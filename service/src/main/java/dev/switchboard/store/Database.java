package dev.switchboard.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;

/**
 * The store (O2): a SQLite file for one process, or a PostgreSQL database (issue 12), its schema brought up to date
 * by Flyway migrations at start. Calls block: callers run them on worker threads, never on an event loop.
 *
 * <p>Both dialects run the same migrations ({@code db/migration/common}); a dialect's own folder
 * ({@code db/migration/sqlite}, {@code db/migration/postgresql}) holds only what must differ. A store whose schema is
 * newer than this code's migrations (a newer replica migrated it) is refused: this code would misread it.
 */
public final class Database implements AutoCloseable {

    /** The SQL a store speaks; where the statements differ, the store's code asks which one it has. */
    public enum Dialect {
        SQLITE("sqlite"),
        POSTGRESQL("postgresql");

        private final String folder;

        Dialect(String folder) {
            this.folder = folder;
        }

        /** The dialect of an open connection's database. */
        public static Dialect of(java.sql.Connection c) throws java.sql.SQLException {
            String product = c.getMetaData().getDatabaseProductName();
            return product != null && product.toLowerCase(java.util.Locale.ROOT).contains("postgres") ? POSTGRESQL : SQLITE;
        }
    }

    public static final String POSTGRESQL_PREFIX = "postgresql://";

    private final HikariDataSource dataSource;
    private final Dialect dialect;
    /** PostgreSQL's JDBC URL and password, for connections outside the pool (LISTEN); null for SQLite. */
    private final String jdbcUrl;
    private final String password;

    private Database(HikariDataSource dataSource, Dialect dialect) {
        this(dataSource, dialect, null, null);
    }

    private Database(HikariDataSource dataSource, Dialect dialect, String jdbcUrl, String password) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.jdbcUrl = jdbcUrl;
        this.password = password;
    }

    /** Opens {@code sqlite:PATH}, creating the file and its folder when missing, and migrates it. */
    public static Database open(String store) {
        return open(store, null);
    }

    /**
     * Opens {@code sqlite:PATH} or {@code postgresql://host[:port]/db[?user=…&sslmode=…]} and migrates it.
     * {@code password} is PostgreSQL's (null: none, or the environment's {@code PGPASSWORD}); it is never part of
     * a message.
     */
    public static Database open(String store, String password) {
        if (store.startsWith(POSTGRESQL_PREFIX)) {
            return openPostgresql(store, password);
        }
        if (!store.startsWith("sqlite:")) {
            throw new IllegalArgumentException("unsupported store '" + redact(store)
                    + "': use sqlite:PATH or postgresql://host:5432/db");
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
        migrate(ds, Dialect.SQLITE);
        // SQLite gives its -wal and -shm files the database's mode; tighten any left from an older start
        for (String suffix : new String[] {"-wal", "-shm"}) {
            Path side = file.resolveSibling(file.getFileName() + suffix);
            if (Files.exists(side)) {
                restrict(side, OWNER_FILE);
            }
        }
        return new Database(ds, Dialect.SQLITE);
    }

    /**
     * {@code postgresql://host[:port]/db?params} as the JDBC URL {@code jdbc:postgresql://…}: every parameter
     * ({@code user}, {@code sslmode}, {@code sslrootcert}, …) goes to the driver as written. A password in the URL is
     * refused: it would be in the config file and in every message that shows the store.
     */
    public static String jdbcUrl(String store) {
        java.net.URI uri;
        try {
            uri = new java.net.URI(store);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("the store is not a postgresql://host:port/db URL: " + e.getReason());
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("the store URL must not hold a user or password (write ?user=NAME, and "
                    + "give the password with storePasswordSecretRef or PGPASSWORD)");
        }
        String query = uri.getRawQuery();
        if (query != null) {
            for (String param : query.split("&")) {
                if (param.toLowerCase(java.util.Locale.ROOT).startsWith("password=")) {
                    throw new IllegalArgumentException("the store URL must not hold the password (give it with "
                            + "storePasswordSecretRef or PGPASSWORD)");
                }
            }
        }
        if (uri.getHost() == null || uri.getRawPath() == null || uri.getRawPath().length() <= 1) {
            throw new IllegalArgumentException("the store must be postgresql://host[:port]/database[?user=…&sslmode=…]");
        }
        return "jdbc:" + store;
    }

    /** The store as it may be shown: anything after {@code password=} in a URL is hidden. */
    public static String redact(String store) {
        if (store == null) {
            return null;
        }
        String out = store.replaceAll("(?i)(password=)[^&]*", "$1***");
        return out.replaceAll("^([A-Za-z][A-Za-z0-9+.-]*://)[^@/?#]*@", "$1***@");
    }

    private static Database openPostgresql(String store, String password) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl(store));
        String pw = password != null ? password : System.getenv("PGPASSWORD");
        if (pw != null && !pw.isEmpty()) {
            config.setPassword(pw);
        }
        config.setPoolName("switchboard-store");
        // one writer connection (ChatStore's group commit) and readers: more than SQLite's 4, as PostgreSQL reads in
        // parallel; the server's max_connections bounds the sum over replicas
        config.setMaximumPoolSize(8);
        HikariDataSource ds;
        try {
            // the pool makes its first connection now: a store that cannot be reached fails the start at once
            ds = new HikariDataSource(config);
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            // the driver's message names the host, the database and the user; never the password
            throw new IllegalStateException("cannot connect to the store " + redact(store) + ": " + root.getMessage(), e);
        }
        migrate(ds, Dialect.POSTGRESQL);
        return new Database(ds, Dialect.POSTGRESQL, config.getJdbcUrl(), pw);
    }

    /** Brings the schema up to date; refuses a schema newer than this code's migrations. Closes {@code ds} on failure. */
    private static void migrate(HikariDataSource ds, Dialect dialect) {
        try {
            if (MigrationIndex.upToDate(ds, dialect.folder)) {
                return;
            }
            List<String> locations = new ArrayList<>(List.of("classpath:db/migration/common"));
            if (Database.class.getClassLoader().getResource("db/migration/" + dialect.folder) != null) {
                locations.add("classpath:db/migration/" + dialect.folder);
            }
            Flyway flyway = Flyway.configure()
                    .dataSource(ds)
                    .locations(locations.toArray(String[]::new))
                    .load();
            refuseNewerSchema(flyway);
            flyway.migrate();
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
    }

    /**
     * A replica of an older release must not run on a store a newer one migrated: it would write rows the newer code
     * misreads, or miss columns it needs. Flyway by default ignores such "future" migrations; here they refuse.
     */
    private static void refuseNewerSchema(Flyway flyway) {
        MigrationInfo[] applied = flyway.info().applied();
        List<String> future = new ArrayList<>();
        for (MigrationInfo m : applied) {
            if (m.getState() == MigrationState.FUTURE_SUCCESS || m.getState() == MigrationState.FUTURE_FAILED) {
                future.add(m.getVersion() + " (" + m.getDescription() + ")");
            }
        }
        if (!future.isEmpty()) {
            MigrationInfo[] known = flyway.info().all();
            String latest = "none";
            for (MigrationInfo m : known) {
                if (m.getState() != MigrationState.FUTURE_SUCCESS && m.getState() != MigrationState.FUTURE_FAILED
                        && m.getVersion() != null) {
                    latest = m.getVersion().toString();
                }
            }
            throw new IllegalStateException("the store's schema is newer than this Switchboard: it has migration(s) "
                    + String.join(", ", future) + " that this version does not know (it knows up to " + latest
                    + "). A newer Switchboard migrated this store; run that version (or newer) here too.");
        }
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

    public Dialect dialect() {
        return dialect;
    }

    /**
     * A PostgreSQL connection of its own, outside the pool, for a caller that holds it for long (a LISTEN): it would
     * otherwise take one of the pool's few connections for good. The caller closes it.
     */
    public java.sql.Connection openDedicatedConnection() throws java.sql.SQLException {
        if (dialect != Dialect.POSTGRESQL) {
            throw new IllegalStateException("only a PostgreSQL store has dedicated connections");
        }
        java.util.Properties props = new java.util.Properties();
        if (password != null && !password.isEmpty()) {
            props.setProperty("password", password);
        }
        return java.sql.DriverManager.getConnection(jdbcUrl, props);
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
