package dev.switchboard.chat.slack;

import dev.switchboard.bridge.engine.Actor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who wrote a message, from {@code users.info}: the name and (with {@code users:read.email}) the email the
 * person's prefix and the actor metadata carry. Cached for an hour and bounded; when Slack cannot say, the
 * person is named by their id alone rather than the turn waiting.
 */
final class SlackPeople {

    private static final Logger LOG = LoggerFactory.getLogger(SlackPeople.class);
    static final Duration TTL = Duration.ofHours(1);
    private static final int MAX_ENTRIES = 10_000;

    private record Known(Actor actor, Instant until) {}

    private final SlackApi api;
    private final Clock clock;
    private final Map<String, Known> cache = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    SlackPeople(SlackApi api, Clock clock) {
        this.api = api;
        this.clock = clock;
    }

    /** Blocks on a cache miss. */
    Actor actor(String userId) {
        Instant now = clock.instant();
        synchronized (cache) {
            Known k = cache.get(userId);
            if (k != null && k.until().isAfter(now)) {
                return k.actor();
            }
        }
        try {
            SlackApi.Person p = api.userInfo(userId);
            Actor actor = new Actor(userId, p.name(), p.email());
            synchronized (cache) {
                cache.put(userId, new Known(actor, now.plus(TTL)));
            }
            return actor;
        } catch (SlackApi.Failure e) {
            LOG.warn("slack: users.info for {} failed ({}); the person is named by id", userId, e.getMessage());
            return new Actor(userId, null, null);
        }
    }
}
