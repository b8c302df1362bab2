/**
 * The store (O2): a SQLite file for one process or a PostgreSQL database for replicas, migrated by Flyway at start
 * ({@link Database}); the SQL {@code RegistrationStore} ({@link SqlRegistrationStore}), one process per SQLite file
 * ({@link StoreLock}), and PostgreSQL notifications that keep each replica's registry current
 * ({@link RegistryNotifications}). JDBC, so every call blocks: callers run it on worker threads.
 */
package dev.switchboard.store;
