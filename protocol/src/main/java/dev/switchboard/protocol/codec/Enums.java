package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.TaskState;
import java.util.Locale;

/**
 * Enum spellings. Readers accept every spelling seen in the wild: 1.0 proto names
 * ({@code TASK_STATE_INPUT_REQUIRED}), 0.3 kebab case ({@code input-required}), lower/snake case,
 * the 0.3 gRPC {@code TASK_STATE_CANCELLED} and proto numbers. Writers use one spelling per version.
 */
final class Enums {

    private Enums() {}

    static TaskState readState(JsonNode v, String path) {
        if (v == null) {
            return TaskState.UNSPECIFIED;
        }
        if (v.isIntegralNumber()) {
            for (TaskState s : TaskState.values()) {
                if (s.number() == v.intValue()) {
                    return s;
                }
            }
            // a state of a newer protocol revision: readers are lenient, and callers decide what unknown means
            return TaskState.UNSPECIFIED;
        }
        if (!v.isTextual()) {
            throw new A2aFormatException(path + ": expected a task state, got " + Fields.describe(v));
        }
        String n = normalise(v.textValue(), "TASK_STATE_");
        switch (n) {
            case "UNKNOWN", "UNSPECIFIED", "":
                return TaskState.UNSPECIFIED;
            case "CANCELLED":
                return TaskState.CANCELED;
            default:
                try {
                    return TaskState.valueOf(n);
                } catch (IllegalArgumentException e) {
                    return TaskState.UNSPECIFIED; // as above: an unknown state is not a malformed task
                }
        }
    }

    static Role readRole(JsonNode v, String path) {
        if (v == null) {
            return Role.UNSPECIFIED;
        }
        if (v.isIntegralNumber()) {
            int n = v.intValue();
            if (n >= 0 && n < Role.values().length) {
                return Role.values()[n];
            }
            throw new A2aFormatException(path + ": unknown role number " + n);
        }
        if (!v.isTextual()) {
            throw new A2aFormatException(path + ": expected a role, got " + Fields.describe(v));
        }
        String n = normalise(v.textValue(), "ROLE_");
        try {
            return n.isEmpty() ? Role.UNSPECIFIED : Role.valueOf(n);
        } catch (IllegalArgumentException e) {
            throw new A2aFormatException(path + ": unknown role '" + v.textValue() + "'", e);
        }
    }

    static String v10(TaskState state) {
        return "TASK_STATE_" + state.name();
    }

    static String v10(Role role) {
        return "ROLE_" + role.name();
    }

    /** 0.3 calls the unspecified state "unknown". */
    static String v03(TaskState state) {
        return state == TaskState.UNSPECIFIED ? "unknown" : state.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Null for UNSPECIFIED: 0.3 has no spelling for it, so the writer leaves role out. */
    static String v03(Role role) {
        return role == Role.UNSPECIFIED ? null : role.name().toLowerCase(Locale.ROOT);
    }

    private static String normalise(String text, String prefix) {
        String n = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        return n.startsWith(prefix) ? n.substring(prefix.length()) : n;
    }
}
