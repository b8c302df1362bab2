package dev.switchboard.ops;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Whether the process is ready for traffic: a set of named conditions that must all be met. Start-up
 * steps (the store migrated, watch mode's first sync) each add one and mark it met when done; shutdown
 * adds one that is never met, so {@code /readyz} turns 503 before the listeners stop.
 */
public final class Readiness {

    private final List<Condition> conditions = new CopyOnWriteArrayList<>();

    /** Adds a condition, pending until {@link Condition#met()} is called. */
    public Condition pending(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a readiness condition needs a name");
        }
        Condition c = new Condition(name);
        conditions.add(c);
        return c;
    }

    /** True when every condition added so far is met. */
    public boolean ready() {
        return conditions.stream().allMatch(Condition::isMet);
    }

    /** The names of the conditions not yet met, in the order they were added. */
    public List<String> pendingNames() {
        return conditions.stream().filter(c -> !c.isMet()).map(Condition::name).toList();
    }

    /** One named condition; meeting it twice is harmless. */
    public static final class Condition {
        private final String name;
        private volatile boolean met;

        private Condition(String name) {
            this.name = name;
        }

        public void met() {
            met = true;
        }

        public boolean isMet() {
            return met;
        }

        public String name() {
            return name;
        }
    }
}
