package dev.switchboard.policy;

import dev.switchboard.protocol.A2aMethod;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The method names a grant covers: an A2A method named in either version covers its equivalent in the other
 * ({@code message/send} covers {@code SendMessage} and the reverse), a custom name covers only itself, and
 * {@code *} covers every method.
 */
public final class MethodNames {

    public static final String ANY = "*";

    private final boolean any;
    private final Set<String> names;

    private MethodNames(boolean any, Set<String> names) {
        this.any = any;
        this.names = Set.copyOf(names);
    }

    public static MethodNames of(List<String> written) {
        boolean any = false;
        Set<String> names = new HashSet<>();
        for (String m : written) {
            if (m.equals(ANY)) {
                any = true;
                continue;
            }
            names.add(m);
            A2aMethod.fromName(m).ifPresent(a -> {
                names.add(a.v10Name());
                if (a.v03Name() != null) {
                    names.add(a.v03Name());
                }
            });
        }
        return new MethodNames(any, names);
    }

    public boolean covers(String method) {
        return any || (method != null && names.contains(method));
    }
}
