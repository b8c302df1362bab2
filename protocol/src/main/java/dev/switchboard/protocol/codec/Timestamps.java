package dev.switchboard.protocol.codec;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * A2A timestamps. Written as {@code YYYY-MM-DDTHH:mm:ss.sssZ} (1.0 §5.6.1: UTC, milliseconds);
 * read leniently because 0.3 producers send zone-less microseconds and a2a-java prints 0, 3, 6 or 9
 * fraction digits. A zone-less value is taken as UTC.
 */
public final class Timestamps {

    private static final DateTimeFormatter WRITE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {}

    public static String format(Instant instant) {
        return WRITE.format(instant);
    }

    /** @throws DateTimeParseException when the text is no ISO-8601 date-time */
    public static Instant parse(String text) {
        String s = text.trim();
        if (s.length() > 10 && s.charAt(10) == ' ') {
            s = s.substring(0, 10) + 'T' + s.substring(11);
        }
        try {
            return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException withoutZone) {
            return LocalDateTime.parse(s, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC);
        }
    }
}
