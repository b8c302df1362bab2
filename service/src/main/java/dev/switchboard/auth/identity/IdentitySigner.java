package dev.switchboard.auth.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.switchboard.auth.Caller;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Switchboard's own signing key and the caller tokens it signs for agents that ask ({@code X-Switchboard-Caller-JWT}):
 * {@code iss} this server, {@code sub} the caller's id, {@code aud} the agent's id, {@code caller_kind}, and
 * {@code exp} {@link #LIFETIME} after {@code iat}. The key is an EC P-256 key (ES256) generated at start, or the
 * private JWK (EC P-256 or RSA) of {@code Server.spec.auth.callerJwt.signingKeySecretRef}: replicas must share one,
 * else an agent holding one replica's JWKS refuses another's tokens. A token is signed once per caller and agent and
 * reused until {@link #REUSE_MARGIN} before it expires.
 */
public final class IdentitySigner {

    public static final Duration LIFETIME = Duration.ofMinutes(5);
    static final Duration REUSE_MARGIN = Duration.ofMinutes(1);
    static final int MAX_CACHED = 10_000;

    private record Signed(String token, long reuseUntilMillis) {}

    private final String issuer;
    private final JWK key;
    private final JWSSigner signer;
    private final JWSAlgorithm alg;
    private final String jwks;
    private final Clock clock;
    private final ConcurrentHashMap<String, Signed> cache = new ConcurrentHashMap<>();

    private IdentitySigner(String issuer, JWK key, Clock clock) throws JOSEException {
        this.issuer = issuer;
        this.key = key;
        this.clock = clock;
        if (key instanceof ECKey ec && Curve.P_256.equals(ec.getCurve())) {
            signer = new ECDSASigner(ec);
            alg = JWSAlgorithm.ES256;
        } else if (key instanceof RSAKey rsa) {
            signer = new RSASSASigner(rsa);
            alg = JWSAlgorithm.RS256;
        } else {
            throw new JOSEException("the signing key must be a private EC P-256 or RSA JWK");
        }
        if (!key.isPrivate()) {
            throw new JOSEException("the signing key must be a private JWK (with its private part)");
        }
        // the published set: the public part only, marked for signatures with its algorithm
        JWK published = key.toPublicJWK();
        if (published instanceof ECKey ec) {
            published = new ECKey.Builder(ec).keyUse(KeyUse.SIGNATURE).algorithm(alg).keyID(key.getKeyID()).build();
        } else if (published instanceof RSAKey rsa) {
            published = new RSAKey.Builder(rsa).keyUse(KeyUse.SIGNATURE).algorithm(alg).keyID(key.getKeyID()).build();
        }
        this.jwks = new JWKSet(published).toString(true);
    }

    /** A key generated now (one replica only). */
    public static IdentitySigner generated(String issuer, Clock clock) {
        try {
            return new IdentitySigner(issuer, new ECKeyGenerator(Curve.P_256).keyUse(KeyUse.SIGNATURE)
                    .keyIDFromThumbprint(true).generate(), clock);
        } catch (JOSEException e) {
            throw new IllegalStateException("could not generate the caller-identity key", e);
        }
    }

    /** The private JWK given; a key without a {@code kid} gets its thumbprint. */
    public static IdentitySigner of(String issuer, String privateJwk, Clock clock) {
        try {
            JWK key = JWK.parse(privateJwk);
            if (key.getKeyID() == null) {
                key = key instanceof ECKey ec ? new ECKey.Builder(ec).keyIDFromThumbprint().build()
                        : key instanceof RSAKey rsa ? new RSAKey.Builder(rsa).keyIDFromThumbprint().build() : key;
            }
            return new IdentitySigner(issuer, key, clock);
        } catch (ParseException | JOSEException | RuntimeException e) {
            // never the key's text, nor a library's message about it (it may quote the JSON): it is a secret
            throw new IllegalArgumentException("the caller-identity signing key is not a private EC P-256 or RSA JWK");
        }
    }

    public String issuer() {
        return issuer;
    }

    /** The public JWKS document served at {@code /.well-known/jwks.json}. */
    public String jwks() {
        return jwks;
    }

    /** A token naming {@code caller} for {@code agentId}. */
    public String tokenFor(Caller caller, String agentId) {
        long now = clock.millis();
        String kind = caller.kind().name().toLowerCase(Locale.ROOT);
        String cacheKey = kind + '\u0000' + caller.id() + '\u0000' + agentId;
        Signed kept = cache.get(cacheKey);
        if (kept != null && now < kept.reuseUntilMillis()) {
            return kept.token();
        }
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(issuer).subject(caller.id()).audience(agentId)
                .issueTime(new Date(now)).notBeforeTime(new Date(now - 1000))
                .expirationTime(new Date(now + LIFETIME.toMillis())).jwtID(UUID.randomUUID().toString())
                .claim("caller_kind", kind).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(),
                claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("could not sign a caller token", e);
        }
        String token = jwt.serialize();
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(cacheKey, new Signed(token, now + LIFETIME.minus(REUSE_MARGIN).toMillis()));
        return token;
    }
}
