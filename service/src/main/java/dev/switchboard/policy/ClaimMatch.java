package dev.switchboard.policy;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Whether a caller's claims hold one of the wanted values: a pure function over {@code Caller.claims()}. Each value of
 * the claim is also split on whitespace, so {@code scope: "agents:read agents:call"} (OAuth's space-separated scope)
 * matches {@code agents:call}, and a list claim ({@code groups: [sre, ops]}) matches any of its items. Values are
 * compared exactly (case matters: identity providers treat them so).
 */
public final class ClaimMatch {

    private ClaimMatch() {}

    public static boolean matches(Map<String, List<String>> claims, String claim, Collection<String> wanted) {
        if (claims == null || claim == null || wanted.isEmpty()) {
            return false;
        }
        List<String> held = claims.get(claim);
        if (held == null) {
            return false;
        }
        for (String value : held) {
            if (value == null) {
                continue;
            }
            if (wanted.contains(value)) {
                return true;
            }
            for (String part : value.trim().split("\\s+")) {
                if (!part.isEmpty() && wanted.contains(part)) {
                    return true;
                }
            }
        }
        return false;
    }
}
