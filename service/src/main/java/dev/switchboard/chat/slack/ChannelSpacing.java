package dev.switchboard.chat.slack;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** chat.postMessage keeps about a message a second per channel: the poster's worker waits out the rest of the second. */
final class ChannelSpacing {

    static final Duration CHANNEL_POST_SPACING = Duration.ofSeconds(1);

    private final Clock clock;
    private final Map<String, Instant> channelNext = new HashMap<>();

    ChannelSpacing(Clock clock) {
        this.clock = clock;
    }

    /** Blocks until a message may be posted in {@code channel}, and counts it as posted now. Worker thread only. */
    void waitFor(String channel) {
        Instant now = clock.instant();
        Instant next = channelNext.getOrDefault(channel, Instant.MIN);
        if (next.isAfter(now)) {
            try {
                Thread.sleep(Math.min(CHANNEL_POST_SPACING.toMillis(), Duration.between(now, next).toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        channelNext.put(channel, clock.instant().plus(CHANNEL_POST_SPACING));
        if (channelNext.size() > 10_000) {
            Instant old = clock.instant();
            channelNext.values().removeIf(t -> t.isBefore(old));
        }
    }
}
