package dev.switchboard.trigger;

import java.time.Clock;

/**
 * A token bucket per trigger: {@code burst} requests at once, then {@code perMinute} a minute. In memory: a restart
 * starts with a full bucket.
 */
final class RateLimit {

    private final Clock clock;
    private final double capacity;
    private final double perMilli;
    private double tokens;
    private long last;

    RateLimit(int perMinute, int burst, Clock clock) {
        this.clock = clock;
        this.capacity = Math.max(1, burst);
        this.perMilli = perMinute / 60_000.0;
        this.tokens = capacity;
        this.last = clock.millis();
    }

    /** 0 when the request may go on (a token is spent); else the whole seconds until a token is there. */
    synchronized long take() {
        long now = clock.millis();
        tokens = Math.min(capacity, tokens + Math.max(0, now - last) * perMilli);
        last = now;
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - tokens) / perMilli / 1000.0));
    }
}
