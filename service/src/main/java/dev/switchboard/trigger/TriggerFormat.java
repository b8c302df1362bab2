package dev.switchboard.trigger;

import java.util.Arrays;
import java.util.Optional;

/** What a trigger's callers POST: Alertmanager's webhook (version 4) or a generic {@code {title, text, fields}}. */
public enum TriggerFormat {
    ALERTMANAGER("alertmanager"),
    GENERIC("generic");

    private final String value;

    TriggerFormat(String value) {
        this.value = value;
    }

    /** As the configuration writes it. */
    public String value() {
        return value;
    }

    public static Optional<TriggerFormat> of(String value) {
        return Arrays.stream(values()).filter(f -> f.value.equals(value)).findFirst();
    }
}
