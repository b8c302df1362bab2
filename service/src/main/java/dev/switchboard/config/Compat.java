package dev.switchboard.config;

import java.util.Locale;

/**
 * {@code Server.spec.compat}: whose names and shapes the parts a caller sees use. {@link #KUBEMQ} makes them
 * KubeMQ's A2A connector's (bare-array agent list, the {@code kubemq} platform card, {@code kubemq_a2a_*}
 * metrics beside Switchboard's own, the {@code X-KubeMQ-Caller-ID} header), so a program written against
 * KubeMQ moves by changing one URL.
 */
public enum Compat {
    /** Switchboard's own names (no {@code compat} in the configuration). */
    NONE,
    KUBEMQ;

    public static final String KUBEMQ_CALLER_ID_HEADER = "X-KubeMQ-Caller-ID";

    /** The value of {@code spec.compat}; null (absent) is {@link #NONE}. */
    public static Compat parse(String value) {
        if (value == null) {
            return NONE;
        }
        if (value.trim().toLowerCase(Locale.ROOT).equals("kubemq")) {
            return KUBEMQ;
        }
        throw new IllegalArgumentException("'" + value + "' is not supported: the only value is kubemq (or leave compat out)");
    }
}
