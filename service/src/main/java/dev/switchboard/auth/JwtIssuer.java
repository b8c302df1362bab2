package dev.switchboard.auth;

import java.net.URI;
import java.util.List;

/**
 * One trusted token issuer of {@code Server.spec.auth.jwt}: tokens whose {@code iss} is {@code issuer} are verified
 * with its keys (fetched from {@code jwksUri}, or the inline {@code jwks} document) and must name one of
 * {@code audiences} in {@code aud}; the caller is the {@code claimsToCaller} claim.
 *
 * @param jwksUri where the issuer's JWKS is fetched; null when {@code jwks} is given
 * @param jwks an inline JWKS document (JSON); null when {@code jwksUri} is given
 */
public record JwtIssuer(String issuer, List<String> audiences, URI jwksUri, String jwks, String claimsToCaller) {

    public static final String DEFAULT_CALLER_CLAIM = "sub";

    public JwtIssuer {
        audiences = List.copyOf(audiences);
        claimsToCaller = claimsToCaller == null || claimsToCaller.isBlank() ? DEFAULT_CALLER_CLAIM : claimsToCaller;
        if ((jwksUri == null) == (jwks == null)) {
            throw new IllegalArgumentException("exactly one of jwksUri and jwks");
        }
    }

    @Override
    public String toString() {
        return "JwtIssuer[issuer=" + issuer + ", audiences=" + audiences + ", jwksUri="
                + (jwksUri == null ? null : printable(jwksUri)) + "]";
    }

    /**
     * A URI as logs and errors show it: scheme, host, port and path. A jwksUri may carry credentials (user info, or a
     * key in its query), and secrets never reach logs or errors.
     */
    public static String printable(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath()) + (uri.getRawQuery() == null ? "" : "?…");
    }
}
