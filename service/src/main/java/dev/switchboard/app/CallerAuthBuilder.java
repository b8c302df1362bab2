package dev.switchboard.app;

import dev.switchboard.auth.identity.IdentitySigner;
import dev.switchboard.auth.JwtVerifier;
import dev.switchboard.config.AuthSettings;
import dev.switchboard.config.SwitchboardConfig;
import io.vertx.core.Vertx;
import java.time.Clock;

/** {@code Server.spec.auth} made into the gateway's JWT verifier and caller-token signer. */
final class CallerAuthBuilder {

    private CallerAuthBuilder() {}

    /** The verifier of the configured issuers, their JWKS fetched in the background from now; null without issuers. */
    static JwtVerifier jwt(Vertx vertx, SwitchboardConfig config, Clock clock) {
        AuthSettings auth = config.server().auth();
        if (auth.jwt().isEmpty()) {
            return null;
        }
        return new JwtVerifier(vertx, auth.jwt(), clock, auth.minRefetchInterval()).prefetch();
    }

    /**
     * Switchboard's signer of caller tokens: the configured private JWK, or a key generated now. Its issuer: the
     * configured one, else publicUrl, else the listen address.
     */
    static IdentitySigner signer(SwitchboardConfig config, Clock clock) {
        AuthSettings auth = config.server().auth();
        String issuer = auth.callerJwtIssuer() != null ? auth.callerJwtIssuer()
                : config.server().publicUrl() != null ? config.server().publicUrl()
                : "http://" + config.server().host() + ":" + config.server().port();
        if (auth.signingKeySecretRef() != null) {
            String setting = "spec.auth.callerJwt.signingKeySecretRef (Secret " + auth.signingKeySecretRef().name()
                    + ", key " + auth.signingKeySecretRef().key() + ")";
            String jwk = config.secret(auth.signingKeySecretRef()).orElseThrow(() -> new IllegalArgumentException(
                    setting + ": the Secret key is missing"));
            try {
                return IdentitySigner.of(issuer, jwk, clock);
            } catch (IllegalArgumentException e) {
                // the signer's words never include the key's text; the setting tells the operator where to look
                throw new IllegalArgumentException(setting + ": " + e.getMessage());
            }
        }
        return IdentitySigner.generated(issuer, clock);
    }
}
