package dev.switchboard.config;

import dev.switchboard.auth.JwtIssuer;
import dev.switchboard.auth.JwtVerifier;
import java.time.Duration;
import java.util.List;

/**
 * {@code Server.spec.auth}: the JWT issuers whose tokens callers may present beside API keys, and how Switchboard signs
 * the caller tokens it passes on to agents ({@code X-Switchboard-Caller-JWT}).
 *
 * @param jwt the trusted issuers; empty: JWTs are not accepted
 * @param callerJwtIssuer the {@code iss} of the tokens Switchboard signs; null: its publicUrl (or listen address)
 * @param signingKeySecretRef a Secret key holding Switchboard's private signing JWK; null: a key generated at start
 *     (one replica only: replicas must share a configured key)
 * @param minRefetchInterval how often at most an issuer's JWKS is fetched again for an unknown {@code kid}: not a
 *     setting (always {@link JwtVerifier#MIN_REFETCH_INTERVAL} from the file); tests shorten it
 */
public record AuthSettings(List<JwtIssuer> jwt, String callerJwtIssuer, SecretRef signingKeySecretRef,
        Duration minRefetchInterval) {

    public static final AuthSettings DEFAULTS = new AuthSettings(List.of(), null, null, null);

    public AuthSettings {
        jwt = jwt == null ? List.of() : List.copyOf(jwt);
        minRefetchInterval = minRefetchInterval == null ? JwtVerifier.MIN_REFETCH_INTERVAL : minRefetchInterval;
    }

    public AuthSettings(List<JwtIssuer> jwt, String callerJwtIssuer, SecretRef signingKeySecretRef) {
        this(jwt, callerJwtIssuer, signingKeySecretRef, null);
    }
}
