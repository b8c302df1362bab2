package dev.switchboard.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Reads an HTTP {@code Retry-After} header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
final class RetryAfter {

    private RetryAfter() {}

    /**
     * The delay the header asks for, counted from {@code now}; zero for a date in the past; null when
     * the header is absent or says neither a number of seconds nor a date.
     */
    static Duration parse(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.strip();
        if (value.chars().allMatch(Character::isDigit)) {
            try {
                return Duration.ofSeconds(Long.parseLong(value));
            } catch (NumberFormatException tooLong) {
                return null;
            }
        }
        try {
            // IMF-fixdate, the one date form RFC 9110 lets senders use
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration delay = Duration.between(now, at);
            return delay.isNegative() ? Duration.ZERO : delay;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
