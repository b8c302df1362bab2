package dev.switchboard.ops;

import dev.switchboard.net.Addresses;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may read {@code /metrics} where it is mounted. The metrics name agents and API-key callers and show their
 * traffic and errors: operator data, not the gateway callers'. So on a main port that listens beyond loopback every
 * caller needs the admin token (Bearer) — loopback ones too, since behind a sidecar or a proxy on this machine the
 * network's callers arrive from loopback — and with no admin token (an insecure server) only callers on this machine
 * get them; a loopback-only main port, or the {@code ops.listen} address (the operator chose who reaches it), serves
 * them to whoever connects.
 *
 * @param here whether /metrics is served at this address at all (not on the main port when ops.listen is set)
 * @param anyone whether any caller that reaches the address may read them
 * @param token beyond loopback, the bearer token that lets a caller read them; null: only loopback callers do
 */
public record MetricsAccess(boolean here, boolean anyone, String token) {

    public static final MetricsAccess OPEN = new MetricsAccess(true, true, null);
    /** The main port when the metrics moved to ops.listen. */
    public static final MetricsAccess ELSEWHERE = new MetricsAccess(false, false, null);

    /**
     * The main port's rule.
     *
     * @param opsListen whether {@code ops.listen} is set (the metrics are served there instead)
     * @param listenHost the main port's listen address
     * @param adminToken the Server's admin token, or null
     */
    public static MetricsAccess mainPort(boolean opsListen, String listenHost, String adminToken) {
        if (opsListen) {
            return ELSEWHERE;
        }
        if (Addresses.isLoopbackOnly(listenHost)) {
            return OPEN;
        }
        return new MetricsAccess(true, false, adminToken);
    }

    /** What a caller from {@code remote} presenting {@code authorization} (may be null) is answered. */
    public Verdict verdict(InetAddress remote, String authorization) {
        if (!here) {
            return Verdict.NOT_FOUND;
        }
        if (anyone) {
            return Verdict.SERVED;
        }
        if (token == null) {
            return remote != null && Addresses.normalise(remote).isLoopbackAddress() ? Verdict.SERVED : Verdict.LOOPBACK_ONLY;
        }
        String presented = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).trim() : null;
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8)) ? Verdict.SERVED : Verdict.TOKEN_NEEDED;
    }

    public enum Verdict { SERVED, NOT_FOUND, TOKEN_NEEDED, LOOPBACK_ONLY }

    @Override
    public String toString() {
        return "MetricsAccess[here=" + here + ", anyone=" + anyone + ", token=" + (token == null ? "none" : "***") + "]";
    }
}
