/**
 * The chat store ({@link ChatStore}): threads, posts and engine sessions on the {@code store} package's
 * database, each session saved after its step and before its effects run; the session's versioned JSON
 * ({@link SessionFormat}), step cards as posts, what a replica tells the others about a changed post, and the lease a
 * step's commit may find lost. Knows the engine's types, not the driver.
 */
package dev.switchboard.bridge.store;
