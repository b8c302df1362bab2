package dev.switchboard.store;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * One PostgreSQL server for the whole test JVM, started at first use from Debian's binaries
 * ({@code /usr/lib/postgresql/N/bin}, or {@code $PG_BIN}) in a temporary folder on a free port, and stopped at JVM
 * exit. initdb and postgres refuse to run as root: as root they run as the {@code postgres} user (runuser).
 * Each store of a test is a database of its own ({@link #newDatabase}); the server's own databases use an ICU
 * collation, not bytes, so that a comparison the store must make bytewise (as SQLite does) is tested for real.
 *
 * <p>Connections: the superuser {@code postgres} without a password; {@link #PASSWORD_USER} with
 * {@link #PASSWORD} (scram-sha-256), for the tests of how a password is given.
 */
public final class TestPostgres {

    public static final String PASSWORD_USER = "switchboard_pw";
    public static final String PASSWORD = "pw-Vq7sN3kTz9";

    private static TestPostgres server;

    private final Path dir;
    private final Path bin;
    private final int port;
    private final boolean asPostgresUser;
    private final String collation;
    private final AtomicInteger databases = new AtomicInteger();
    /** how long the start took: the suite's cost of PostgreSQL */
    public final long startMillis;

    private TestPostgres(Path bin) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        this.bin = bin;
        this.asPostgresUser = "root".equals(System.getProperty("user.name"));
        this.dir = Files.createTempDirectory("switchboard-pg-");
        Path data = dir.resolve("data");
        if (asPostgresUser) {
            run(List.of("chown", "postgres:", dir.toString()));
        }
        Files.writeString(dir.resolve("pw"), "postgres\n", StandardCharsets.UTF_8);
        if (asPostgresUser) {
            run(List.of("chown", "postgres:", dir.resolve("pw").toString()));
        }
        run(asUser(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-E", "UTF8",
                "--locale=C.UTF-8", "--no-sync", "--auth-local=trust", "--auth-host=trust")));
        // the superuser over TCP without a password; every other role with one
        Files.writeString(data.resolve("pg_hba.conf"), "local all all trust\n"
                + "host all postgres 127.0.0.1/32 trust\n"
                + "host all all 127.0.0.1/32 scram-sha-256\n", StandardCharsets.UTF_8);
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        run(asUser(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(),
                "-w", "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off "
                        + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300", "start")));
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "test-postgres-stop"));
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + PASSWORD_USER + " LOGIN PASSWORD '" + PASSWORD + "'");
        } catch (SQLException e) {
            throw new IllegalStateException("the test PostgreSQL started but cannot be used: " + e.getMessage(), e);
        }
        this.collation = icuAvailable() ? " TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'" : "";
        startMillis = (System.nanoTime() - t0) / 1_000_000;
    }

    /** The server, started at the first call. Fails with what to install when PostgreSQL's binaries are missing. */
    public static synchronized TestPostgres get() {
        if (server == null) {
            Path bin = findBin();
            try {
                server = new TestPostgres(bin);
                System.err.println("test PostgreSQL (" + bin + ") started in " + server.startMillis + " ms on port "
                        + server.port + " in " + server.dir);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the test PostgreSQL from " + bin + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting the test PostgreSQL", e);
            }
        }
        return server;
    }

    private static Path findBin() {
        String env = System.getenv("PG_BIN");
        if (env != null && Files.isExecutable(Path.of(env, "initdb"))) {
            return Path.of(env);
        }
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            Path found = versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparing(b -> version(b.getParent().getFileName().toString())))
                    .orElse(null);
            if (found != null) {
                return found;
            }
        } catch (IOException e) {
            // none there
        }
        throw new IllegalStateException("The store tests run against PostgreSQL too, and its server binaries were not "
                + "found (no /usr/lib/postgresql/*/bin/initdb, no $PG_BIN). Install them (Debian: apt-get install -y "
                + "postgresql), or run ./run-tests, which installs them when missing.");
    }

    private static int version(String name) {
        try {
            return Integer.parseInt(name.replaceAll("[^0-9].*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A new, empty database; its store URL (user postgres, no password). */
    public String newDatabase() {
        String name = "t" + databases.incrementAndGet() + "_" + ProcessHandle.current().pid();
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name + collation);
            s.execute("GRANT ALL ON DATABASE " + name + " TO " + PASSWORD_USER);
            s.execute("ALTER DATABASE " + name + " OWNER TO " + PASSWORD_USER);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a test database: " + e.getMessage(), e);
        }
        return storeUrl(name, "postgres");
    }

    public String storeUrl(String database, String user) {
        return "postgresql://127.0.0.1:" + port + "/" + database + "?user=" + user;
    }

    public int port() {
        return port;
    }

    private boolean icuAvailable() {
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE icu_probe TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'");
            s.execute("DROP DATABASE icu_probe");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private Connection admin() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres");
    }

    private List<String> asUser(List<String> command) {
        if (!asPostgresUser) {
            return command;
        }
        List<String> out = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        out.addAll(command);
        return out;
    }

    private void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            String log = "";
            Path logFile = dir.resolve("log");
            if (Files.exists(logFile)) {
                log = "\n" + Files.readString(logFile);
            }
            throw new IOException(String.join(" ", command) + " failed:\n" + new String(out, StandardCharsets.UTF_8) + log);
        }
    }

    private void stop() {
        try {
            run(asUser(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate",
                    "-w", "stop")));
        } catch (IOException | InterruptedException e) {
            // the JVM is exiting: nothing more to do
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind
        }
    }
}
