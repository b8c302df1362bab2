package dev.switchboard.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An issuer's public signing keys, each with the one algorithm family it may verify: an RSA key only RS and PS
 * signatures, an EC key only ES of its own curve, an Ed25519 key only EdDSA. Symmetric keys are never taken (so no
 * HS256 token can be checked with a public RSA key as its secret: the HS/RS confusion), nor keys marked for
 * encryption.
 */
final class VerificationKeys {

    /** The most keys taken from one JWKS; the rest are ignored. */
    static final int MAX_KEYS = 64;

    /** The algorithms accepted at all: asymmetric signatures only. */
    static final Set<JWSAlgorithm> ACCEPTED = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
            JWSAlgorithm.ES512, JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);

    static final VerificationKeys NONE = new VerificationKeys(List.of());

    /** One usable key. */
    record Key(String kid, JWSAlgorithm declared, Set<JWSAlgorithm> algorithms, JWSVerifier verifier) {
        boolean verifies(JWSAlgorithm alg) {
            return algorithms.contains(alg) && (declared == null || declared.equals(alg));
        }
    }

    private final List<Key> keys;

    private VerificationKeys(List<Key> keys) {
        this.keys = List.copyOf(keys);
    }

    /** The usable keys of a JWKS document; unusable ones (symmetric, encryption, unknown types) are left out. */
    static VerificationKeys parse(String jwks) throws ParseException {
        JWKSet set = JWKSet.parse(jwks);
        List<Key> out = new ArrayList<>();
        for (JWK jwk : set.getKeys()) {
            if (out.size() == MAX_KEYS) {
                break;
            }
            if (jwk.getKeyUse() != null && !KeyUse.SIGNATURE.equals(jwk.getKeyUse())) {
                continue;
            }
            JWSAlgorithm declared = jwk.getAlgorithm() == null ? null : JWSAlgorithm.parse(jwk.getAlgorithm().getName());
            try {
                Key key = null; // an "oct" (symmetric) key, or a type we do not verify with, stays null
                if (jwk instanceof RSAKey rsa) {
                    key = new Key(rsa.getKeyID(), declared, Set.copyOf(JWSAlgorithm.Family.RSA),
                            new RSASSAVerifier(rsa.toRSAPublicKey()));
                } else if (jwk instanceof ECKey ec) {
                    key = new Key(ec.getKeyID(), declared, ecAlgorithms(ec.getCurve()),
                            new ECDSAVerifier(ec.toECPublicKey()));
                } else if (jwk instanceof OctetKeyPair okp) {
                    key = new Key(okp.getKeyID(), declared, Set.of(JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519),
                            new EdDsaVerifier(okp));
                }
                if (key != null && !key.algorithms().isEmpty()) {
                    out.add(key);
                }
            } catch (JOSEException | RuntimeException unusable) {
                // a key we cannot use (a curve we do not verify, a short RSA key) is skipped, not fatal to the others
            }
        }
        return new VerificationKeys(out);
    }

    private static Set<JWSAlgorithm> ecAlgorithms(Curve curve) {
        if (Curve.P_256.equals(curve)) {
            return Set.of(JWSAlgorithm.ES256);
        }
        if (Curve.P_384.equals(curve)) {
            return Set.of(JWSAlgorithm.ES384);
        }
        if (Curve.P_521.equals(curve)) {
            return Set.of(JWSAlgorithm.ES512);
        }
        return Set.of();
    }

    /** The keys that may verify a token of {@code alg} with key id {@code kid} (any kid when it has none). */
    List<Key> candidates(String kid, JWSAlgorithm alg) {
        List<Key> out = new ArrayList<>(1);
        for (Key k : keys) {
            if ((kid == null || Objects.equals(kid, k.kid())) && k.verifies(alg)) {
                out.add(k);
            }
        }
        return out;
    }

    boolean isEmpty() {
        return keys.isEmpty();
    }

    int size() {
        return keys.size();
    }
}
