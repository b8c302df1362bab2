package dev.switchboard.bridge;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Bindings in force, read at each use (each turn, each chat request), so that the Kubernetes watch can add,
 * change and remove them while the service runs. Served from a file they never change. A thread whose Binding
 * is gone is refused its next message ({@link TurnRefused.BindingGone}); a call its turn still had to make finds
 * no backend and the turn ends with the bridge's notice.
 */
public final class LiveBindings {

    private final ConcurrentHashMap<String, BindingRuntime> byName = new ConcurrentHashMap<>();
    private volatile List<Binding> specs;

    public LiveBindings(List<BindingRuntime> bindings) {
        replace(bindings);
    }

    /** The live map, by name: what the session driver looks a thread's Binding up in. */
    public Map<String, BindingRuntime> byName() {
        return byName;
    }

    /** The Bindings in force now, in their configuration's order. */
    public List<Binding> specs() {
        return specs;
    }

    /**
     * Puts {@code next} in force. A Binding whose spec and token did not change keeps its runtime (and the card it
     * fetched); a changed one gets a new runtime, so the card is fetched again. Returns the names removed.
     */
    public synchronized java.util.Set<String> replace(List<BindingRuntime> next) {
        Map<String, BindingRuntime> wanted = new java.util.LinkedHashMap<>();
        for (BindingRuntime b : next) {
            BindingRuntime current = byName.get(b.spec().name());
            wanted.put(b.spec().name(), current != null && current.spec().equals(b.spec())
                    && Objects.equals(current.token(), b.token()) ? current : b);
        }
        java.util.Set<String> removed = new java.util.HashSet<>(byName.keySet());
        removed.removeAll(wanted.keySet());
        byName.putAll(wanted);
        byName.keySet().retainAll(wanted.keySet());
        specs = wanted.values().stream().map(BindingRuntime::spec).toList();
        return removed;
    }
}
