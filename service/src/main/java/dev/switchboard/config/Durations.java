package dev.switchboard.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as written in config: {@code 500ms}, {@code 90s}, {@code 15m}, {@code 1h}, {@code 1d}, or a bare number of seconds. */
public final class Durations {

    private static final Pattern FORM = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

    private Durations() {}

    /** @throws IllegalArgumentException with a message saying what is accepted */
    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (use e.g. 500ms, 90s, 15m, 1h, 1d)");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /** The shortest form {@link #parse} reads back as the same duration, e.g. 1h for 60 minutes. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s != 0 && s % 86400 == 0) {
            return s / 86400 + "d";
        }
        if (s != 0 && s % 3600 == 0) {
            return s / 3600 + "h";
        }
        if (s != 0 && s % 60 == 0) {
            return s / 60 + "m";
        }
        return s + "s";
    }
}
