package dev.switchboard.kubernetes;

/**
 * A resource's {@code Ready} condition: whether Switchboard serves it as written, and if not, why in words a person
 * can act on. Two replicas that see the same resources compute the same condition, so neither rewrites the other's.
 */
record Condition(boolean ready, String reason, String message, long observedGeneration) {

    static Condition applied(long generation) {
        return new Condition(true, "Applied", "in force", generation);
    }

    static Condition notReady(String reason, String message, long generation) {
        return new Condition(false, reason, message, generation);
    }
}
