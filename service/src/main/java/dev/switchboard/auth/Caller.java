package dev.switchboard.auth;

import java.util.List;
import java.util.Map;

/**
 * Who is calling the gateway, as {@link CallerAuth} found it: the id that metrics, logs, the caller-id header and
 * rate limits use, how it was proven, and (for a verified JWT) its claims for grants to match.
 *
 * @param id the API key's name, the JWT's mapped claim (by default {@code sub}), or the remote address when no keys
 *     are configured
 * @param kind how the caller proved who it is
 * @param claims a JWT caller's claims, each as a list of strings (a scalar claim is a list of one); empty otherwise
 * @param bearer the token the caller presented, kept only for a JWT caller (for {@code auth.passThrough}); never
 *     printed
 */
public record Caller(String id, Kind kind, Map<String, List<String>> claims, String bearer) {

    /** How a caller proved who it is. */
    public enum Kind {
        /** An {@code Authorization: Bearer} API key from {@code Server.spec.apiKeys}. */
        API_KEY,
        /** A JWT verified against a configured issuer. */
        JWT,
        /** Nobody: the server has no keys, and the caller is known by its address. */
        ADDRESS
    }

    public Caller {
        claims = Map.copyOf(claims);
    }

    public static Caller apiKey(String name) {
        return new Caller(name, Kind.API_KEY, Map.of(), null);
    }

    public static Caller address(String address) {
        return new Caller(address, Kind.ADDRESS, Map.of(), null);
    }

    @Override
    public String toString() {
        return "Caller[id=" + id + ", kind=" + kind + "]";
    }
}
