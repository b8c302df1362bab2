package dev.switchboard.store;

import java.nio.file.Path;

/**
 * The stores every store test runs against (issue 12): a test class parameterised by this enum
 * ({@code @ParameterizedClass @EnumSource(TestStore.class)}, or a {@code @ParameterizedTest}) runs once on SQLite and
 * once on PostgreSQL, each time on a fresh store.
 */
public enum TestStore {
    SQLITE,
    POSTGRESQL;

    /** A fresh store: a new SQLite file in {@code dir}, or a new database on the test JVM's PostgreSQL. */
    public Database open(Path dir) {
        return Database.open(url(dir));
    }

    /** The store setting of a fresh store, for a test that starts a whole server on it. */
    public String url(Path dir) {
        return switch (this) {
            case SQLITE -> "sqlite:" + dir.resolve("store-" + System.nanoTime() + ".db");
            case POSTGRESQL -> TestPostgres.get().newDatabase();
        };
    }
}
