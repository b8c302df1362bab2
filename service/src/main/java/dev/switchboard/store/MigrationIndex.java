package dev.switchboard.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Enumeration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.sql.DataSource;

/**
 * Start-up's shortcut past Flyway: a store whose schema history holds exactly this code's migrations, all successful,
 * needs nothing, and Flyway (hundreds of classes, its info and validation queries: a good part of a restart) is not
 * started. Any difference (a migration to apply, a failed one, one this code does not know) goes to Flyway, which
 * migrates, validates, or refuses as before.
 */
final class MigrationIndex {

    private static final Pattern VERSIONED = Pattern.compile("V([0-9][0-9_.]*)__[^/]*\\.sql");

    private MigrationIndex() {}

    /** True when the store already has exactly this code's migrations (common ones and the dialect's own). */
    static boolean upToDate(DataSource ds, String dialectFolder) {
        Set<String> known;
        try {
            ClassLoader loader = MigrationIndex.class.getClassLoader();
            known = known(loader, "db/migration/common");
            known.addAll(known(loader, "db/migration/" + dialectFolder));
        } catch (IOException | URISyntaxException | UncheckedIOException e) {
            return false; // cannot tell: Flyway decides
        }
        if (known.isEmpty()) {
            return false;
        }
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            if (!hasHistory(c)) {
                return false;
            }
            Set<String> applied = new TreeSet<>();
            try (ResultSet rs = st.executeQuery("SELECT version, success FROM flyway_schema_history")) {
                while (rs.next()) {
                    String version = rs.getString(1);
                    if (!rs.getBoolean(2)) {
                        return false;
                    }
                    if (version != null) {
                        applied.add(normal(version));
                    }
                }
            }
            return applied.equals(known);
        } catch (SQLException e) {
            return false;
        }
    }

    private static boolean hasHistory(Connection c) throws SQLException {
        for (String name : new String[] {"flyway_schema_history", "FLYWAY_SCHEMA_HISTORY"}) {
            try (ResultSet rs = c.getMetaData().getTables(null, null, name, null)) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The versions of the {@code V<version>__*.sql} files in a classpath folder, in a jar or a directory. */
    static Set<String> known(ClassLoader loader, String folder) throws IOException, URISyntaxException {
        Set<String> versions = new TreeSet<>();
        Enumeration<URL> urls = loader.getResources(folder);
        while (urls.hasMoreElements()) {
            URL url = urls.nextElement();
            if ("file".equals(url.getProtocol())) {
                try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                    files.forEach(f -> add(versions, f.getFileName().toString()));
                }
            } else if ("jar".equals(url.getProtocol())) {
                String spec = url.getPath(); // file:/x/app.jar!/db/migration/common
                Path jar = Path.of(new java.net.URI(spec.substring(0, spec.indexOf("!/"))));
                try (ZipFile zip = new ZipFile(jar.toFile())) {
                    for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                        String name = e.nextElement().getName();
                        if (name.startsWith(folder + "/") && name.indexOf('/', folder.length() + 1) < 0) {
                            add(versions, name.substring(folder.length() + 1));
                        }
                    }
                }
            } else {
                throw new IOException("cannot list " + url);
            }
        }
        return versions;
    }

    private static void add(Set<String> versions, String fileName) {
        Matcher m = VERSIONED.matcher(fileName);
        if (m.matches()) {
            versions.add(normal(m.group(1)));
        }
    }

    /** Flyway writes {@code 7_1} as {@code 7.1}. */
    private static String normal(String version) {
        return version.replace('_', '.');
    }
}
