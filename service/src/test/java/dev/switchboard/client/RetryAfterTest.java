package dev.switchboard.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");

    @Test
    void readsDelaySeconds() {
        assertThat(RetryAfter.parse("120", NOW)).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse(" 0 ", NOW)).isEqualTo(Duration.ZERO);
    }

    @Test
    void readsAnHttpDateAsTheDelayFromNow() {
        assertThat(RetryAfter.parse("Fri, 01 May 2026 12:01:30 GMT", NOW)).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void aDateInThePastMeansNow() {
        assertThat(RetryAfter.parse("Fri, 01 May 2026 11:00:00 GMT", NOW)).isEqualTo(Duration.ZERO);
    }

    @Test
    void absentOrUnreadableIsNull() {
        assertThat(RetryAfter.parse(null, NOW)).isNull();
        assertThat(RetryAfter.parse("", NOW)).isNull();
        assertThat(RetryAfter.parse("soon", NOW)).isNull();
        assertThat(RetryAfter.parse("-5", NOW)).isNull();
        assertThat(RetryAfter.parse("99999999999999999999999", NOW)).isNull();
    }
}
