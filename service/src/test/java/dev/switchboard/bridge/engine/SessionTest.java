package dev.switchboard.bridge.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** B7's memory of message ids: bounded, oldest forgotten first. */
class SessionTest {

    @Test
    void theNewestMessageIdsAreRememberedAndTheOldestForgotten() {
        Session s = new Session("t", "Web", "a2a", true, Duration.ofHours(1), "fp");
        for (int i = 0; i < Session.SEEN_LIMIT + 5; i++) {
            s = s.remembering("m" + i);
        }
        assertThat(s.seenMessageIds()).hasSize(Session.SEEN_LIMIT);
        assertThat(s.seenMessageIds().get(0)).isEqualTo("m5");
        assertThat(s.seenMessageIds().get(Session.SEEN_LIMIT - 1)).isEqualTo("m" + (Session.SEEN_LIMIT + 4));
        assertThat(s.remembering("m100")).as("a repeated id changes nothing").isSameAs(s);
    }
}
