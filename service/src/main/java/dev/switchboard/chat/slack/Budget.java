package dev.switchboard.chat.slack;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** A token bucket: {@code capacity} calls at once, refilled at {@code perSecond}. Worker thread only. */
final class Budget {
    private final double capacity;
    private final double perSecond;
    private final Clock clock;
    private double tokens;
    private Instant at;

    Budget(double capacity, double perSecond, Clock clock) {
        this.capacity = capacity;
        this.perSecond = perSecond;
        this.clock = clock;
        this.tokens = capacity;
        this.at = clock.instant();
    }

    private void refill() {
        Instant now = clock.instant();
        tokens = Math.min(capacity, tokens + Duration.between(at, now).toMillis() / 1000.0 * perSecond);
        at = now;
    }

    Instant availableAt() {
        refill();
        return tokens >= 1 ? Instant.MIN : at.plusMillis((long) Math.ceil((1 - tokens) / perSecond * 1000));
    }

    void spend() {
        refill();
        tokens -= 1;
    }
}
