package dev.switchboard.push;

import java.time.Duration;

/**
 * How notifications are delivered to callers' URLs.
 *
 * @param firstRetry the wait after the first failed attempt; each later one doubles it
 * @param maxRetryWait the longest wait between attempts
 * @param maxAttempts attempts before a notification is dropped
 * @param timeout one attempt's limit, connect to answer
 * @param batch entries taken per pass
 * @param keepDone how long delivered and dropped entries are kept to recognise a notification sent again
 * @param maxBodyBytes the largest notification accepted from an agent
 */
public record PushSettings(Duration firstRetry, Duration maxRetryWait, int maxAttempts, Duration timeout, int batch,
        Duration keepDone, int maxBodyBytes) {

    public static final PushSettings DEFAULTS = new PushSettings(Duration.ofSeconds(1), Duration.ofMinutes(5), 12,
            Duration.ofSeconds(10), 50, Duration.ofHours(1), 1024 * 1024);

    /** The wait after failed attempt number {@code attempts} (1 for the first). */
    public long backoffMillis(int attempts) {
        long wait = firstRetry.toMillis();
        for (int i = 1; i < attempts && wait < maxRetryWait.toMillis(); i++) {
            wait *= 2;
        }
        return Math.min(wait, maxRetryWait.toMillis());
    }
}
