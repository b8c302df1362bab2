package dev.switchboard.auth;

import com.nimbusds.jose.Header;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWEHeader;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.switchboard.auth.Caller;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies a bearer JWT against the configured issuers: at most {@value #MAX_TOKEN_CHARS} characters, a JWS with an
 * asymmetric algorithm ({@code none}, HS* and JWE are refused), an {@code iss} configured here, a signature by one of
 * that issuer's keys of the token's algorithm family, {@code exp} (required) and {@code nbf} within
 * {@link #CLOCK_SKEW}, an {@code aud} naming one of the issuer's audiences, and the caller claim a string. A verified
 * token is a {@link Caller} of kind JWT; a refused one an {@link InvalidToken} saying which rule it broke.
 *
 * <p>A token verified lately is decided at once from a cache ({@link VerifiedTokens}); any other has its claims checked on
 * the calling thread and its signature on a small worker pool (half the processors), at most
 * {@value #MAX_CHECKS_WAITING} at a time, past which it is refused as {@link TokenChecksBusy}: a flood of forged
 * tokens costs at most those threads, never the event loops that serve API keys and cached tokens. One whose
 * {@code kid} is unknown waits for the issuer's JWKS to be fetched again (see {@link IssuerKeys}).
 */
public final class JwtVerifier {

    private static final Logger LOG = LoggerFactory.getLogger(JwtVerifier.class);

    public static final int MAX_TOKEN_CHARS = 8 * 1024;
    public static final Duration CLOCK_SKEW = Duration.ofSeconds(60);
    public static final Duration MIN_REFETCH_INTERVAL = Duration.ofSeconds(30);
    /** The longest caller id taken from a claim. */
    static final int MAX_CALLER_CHARS = 256;

    /** Signature checks queued or running at most; past it a token is answered "busy" (429), not checked. */
    static final int MAX_CHECKS_WAITING = 64;

    private final Map<String, IssuerKeys> issuers = new HashMap<>();
    private final WorkerExecutor checks;
    private final AtomicInteger checking = new AtomicInteger();
    private final VerifiedTokens verified = new VerifiedTokens();
    private final Clock clock;
    private final HttpClient client;

    /**
     * @param minRefetchInterval how often at most an issuer's JWKS is fetched again for an unknown {@code kid}
     *     ({@link #MIN_REFETCH_INTERVAL} in production)
     * @throws IllegalArgumentException when an inline JWKS is not one
     */
    public JwtVerifier(Vertx vertx, List<JwtIssuer> issuers, Clock clock, Duration minRefetchInterval) {
        this.clock = clock;
        this.checks = vertx.createSharedWorkerExecutor("switchboard-jwt-checks",
                Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) IssuerKeys.FETCH_TIMEOUT.toMillis())
                .setIdleTimeout((int) IssuerKeys.FETCH_TIMEOUT.toSeconds())
                .setMaxInitialLineLength(4096).setMaxHeaderSize(16 * 1024));
        for (JwtIssuer i : issuers) {
            try {
                this.issuers.put(i.issuer(), new IssuerKeys(i, vertx, client, minRefetchInterval));
            } catch (ParseException e) {
                // not the parser's words: they may quote the document, and a JWKS pasted by mistake may hold a private key
                throw new IllegalArgumentException("the inline jwks of issuer " + i.issuer()
                        + " is not a JWKS document (a JSON object with \"keys\")");
            }
        }
    }

    /** Fetches every issuer's JWKS in the background. */
    public JwtVerifier prefetch() {
        issuers.values().forEach(IssuerKeys::prefetch);
        return this;
    }

    public void close() {
        client.close();
        checks.close();
    }

    /** Whether a bearer token has a JWS's shape (three parts, the first a JSON object's base64url): cheap, no parsing. */
    public static boolean looksLikeJwt(String token) {
        return token.startsWith("eyJ") && token.indexOf('.') > 0;
    }

    /** The caller the token proves, or a failed future with an {@link InvalidToken}. */
    public Future<Caller> verify(String token) {
        long now = clock.millis();
        Caller known = verified.get(token, now);
        if (known != null) {
            return Future.succeededFuture(known);
        }
        Parsed parsed;
        try {
            parsed = parse(token);
        } catch (InvalidToken e) {
            return Future.failedFuture(e);
        }
        IssuerKeys keys = issuers.get(parsed.issuer());
        if (keys == null) {
            return Future.failedFuture(new InvalidToken("unknown issuer: iss is not an issuer this server trusts"));
        }
        List<VerificationKeys.Key> candidates = keys.current().candidates(parsed.kid(), parsed.alg());
        if (!candidates.isEmpty()) {
            return finish(token, parsed, keys, candidates);
        }
        // an unknown kid: the issuer may have rotated its keys; fetch them again (at most once per interval)
        return keys.refetch().compose(fresh -> finish(token, parsed, keys, fresh.candidates(parsed.kid(), parsed.alg())));
    }

    private Future<Caller> finish(String token, Parsed parsed, IssuerKeys keys, List<VerificationKeys.Key> candidates) {
        if (candidates.isEmpty()) {
            String failure = keys.lastFailure();
            return Future.failedFuture(new InvalidToken("unknown key: no key of issuer " + keys.issuer().issuer()
                    + " matches the token's kid and alg" + (failure == null ? "" : " (its JWKS could not be fetched)")));
        }
        JwtIssuer issuer = keys.issuer();
        Caller caller;
        long expires;
        try {
            // the claims first: they cost nothing, a signature check up to a millisecond (ES256 on JDK 17)
            expires = expiry(parsed.claims(), issuer);
            caller = caller(token, parsed.claims(), issuer);
        } catch (InvalidToken e) {
            return Future.failedFuture(e);
        }
        if (checking.incrementAndGet() > MAX_CHECKS_WAITING) {
            checking.decrementAndGet();
            return Future.failedFuture(TokenChecksBusy.INSTANCE);
        }
        // off the event loop, on a pool smaller than the machine: forged tokens cannot stall every other caller
        return checks.executeBlocking(() -> signed(parsed, candidates), false)
                .andThen(done -> checking.decrementAndGet())
                .compose(signed -> {
                    if (!signed) {
                        return Future.failedFuture(new InvalidToken("bad signature: the token is not signed by issuer "
                                + issuer.issuer()));
                    }
                    verified.put(token, caller, expires, clock.millis());
                    return Future.succeededFuture(caller);
                });
    }

    private static boolean signed(Parsed parsed, List<VerificationKeys.Key> candidates) {
        for (VerificationKeys.Key k : candidates) {
            try {
                if (parsed.jwt().verify(k.verifier())) {
                    return true;
                }
            } catch (JOSEException | RuntimeException e) {
                // a signature of the wrong length or form: not verified by this key
            }
        }
        return false;
    }

    /** When a token whose exp, nbf and aud hold stops being accepted (its exp plus the skew). */
    private long expiry(JWTClaimsSet claims, JwtIssuer issuer) throws InvalidToken {
        long now = clock.millis();
        long skew = CLOCK_SKEW.toMillis();
        Date exp;
        Date nbf;
        List<String> aud;
        try {
            exp = claims.getExpirationTime();
            nbf = claims.getNotBeforeTime();
            aud = claims.getAudience();
        } catch (RuntimeException e) {
            throw new InvalidToken("malformed claims: exp, nbf and aud must be numbers and strings");
        }
        if (exp == null) {
            throw new InvalidToken("missing claim: exp (tokens without an expiry are refused)");
        }
        if (now > exp.getTime() + skew) {
            throw new InvalidToken("expired: exp is past (allowing " + CLOCK_SKEW.toSeconds() + " s of clock skew)");
        }
        if (nbf != null && now + skew < nbf.getTime()) {
            throw new InvalidToken("not yet valid: nbf is in the future");
        }
        if (aud == null || aud.stream().noneMatch(issuer.audiences()::contains)) {
            throw new InvalidToken("wrong audience: aud names none of the audiences this server accepts from issuer "
                    + issuer.issuer());
        }
        return exp.getTime() + skew;
    }

    private static Caller caller(String token, JWTClaimsSet claims, JwtIssuer issuer) throws InvalidToken {
        Object id = claims.getClaim(issuer.claimsToCaller());
        if (!(id instanceof String s) || s.isBlank() || s.length() > MAX_CALLER_CHARS) {
            throw new InvalidToken("missing claim: " + issuer.claimsToCaller() + " must be a string of 1 to "
                    + MAX_CALLER_CHARS + " characters (the caller's id)");
        }
        return new Caller(s, Caller.Kind.JWT, ClaimValues.of(claims.toJSONObject()), token);
    }

    /** What is read before any key: the header's algorithm and key id, the claims (unverified yet), the issuer. */
    private record Parsed(SignedJWT jwt, JWSAlgorithm alg, String kid, JWTClaimsSet claims, String issuer) {}

    static Parsed parse(String token) throws InvalidToken {
        if (token.length() > MAX_TOKEN_CHARS) {
            throw new InvalidToken("token too large: more than " + MAX_TOKEN_CHARS + " characters");
        }
        int dots = 0;
        for (int i = 0; i < token.length(); i++) {
            if (token.charAt(i) == '.') {
                dots++;
            }
        }
        if (dots == 4) {
            throw new InvalidToken("encrypted token: JWE is not accepted, send a signed JWT");
        }
        if (dots != 2) {
            throw new InvalidToken("malformed token: a JWT has three dot-separated parts");
        }
        try {
            Header header = Header.parse(new Base64URL(token.substring(0, token.indexOf('.'))));
            if (header instanceof PlainHeader) {
                throw new InvalidToken("alg refused: none (unsigned tokens are not accepted)");
            }
            if (header instanceof JWEHeader) {
                throw new InvalidToken("encrypted token: JWE is not accepted, send a signed JWT");
            }
            JWSAlgorithm alg = ((JWSHeader) header).getAlgorithm();
            if (!VerificationKeys.ACCEPTED.contains(alg)) {
                throw new InvalidToken("alg refused: " + algName(alg) + " (accepted: RS256/384/512, PS256/384/512, "
                        + "ES256/384/512, EdDSA)");
            }
            if ("JWT".equalsIgnoreCase(header.getContentType() == null ? null : header.getContentType().toString())) {
                throw new InvalidToken("nested token refused: cty JWT");
            }
            SignedJWT jwt = SignedJWT.parse(token);
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Object iss = claims.getClaim("iss");
            if (!(iss instanceof String issuer)) {
                throw new InvalidToken(iss == null ? "missing claim: iss" : "malformed claims: iss is not a string");
            }
            return new Parsed(jwt, alg, ((JWSHeader) header).getKeyID(), claims, issuer);
        } catch (ParseException | RuntimeException | StackOverflowError e) {
            // bad base64, a header or payload that is not a JSON object, wrong types: all one answer, none of it echoed
            LOG.debug("a bearer token could not be parsed: {}", e.getClass().getSimpleName());
            throw new InvalidToken("malformed token: header and payload must be base64url JSON objects");
        }
    }

    /** The algorithm's name when it is one JOSE defines; anything else the caller wrote is not repeated. */
    private static String algName(JWSAlgorithm alg) {
        List<JWSAlgorithm> known = new ArrayList<>(JWSAlgorithm.Family.HMAC_SHA);
        known.addAll(JWSAlgorithm.Family.SIGNATURE);
        return known.contains(alg) ? alg.getName() : "an unsupported algorithm";
    }
}
