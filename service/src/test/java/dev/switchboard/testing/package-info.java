/**
 * The test tiers: one annotation per slow kind of test ({@link dev.switchboard.testing.ServerTest},
 * {@link dev.switchboard.testing.ProcessTest}, {@link dev.switchboard.testing.BrowserTest},
 * {@link dev.switchboard.testing.PostgresTest}, {@link dev.switchboard.testing.InteropTest}), each a JUnit tag.
 * Every test class that starts a server, a process, a browser, PostgreSQL or another SDK's peer carries the
 * annotation for it (several when it does several); the rest are the fast tier.
 */
package dev.switchboard.testing;
