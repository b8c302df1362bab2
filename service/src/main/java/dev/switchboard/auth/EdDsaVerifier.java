package dev.switchboard.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.util.Base64URL;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Set;

/**
 * EdDSA (Ed25519) signatures checked with the JDK's own Ed25519 (Java 15+): nimbus's Ed25519Verifier needs Google
 * Tink, a dependency of its own that this one class makes unnecessary.
 */
final class EdDsaVerifier implements JWSVerifier {

    /** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow. */
    private static final byte[] X509_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    private final PublicKey key;
    private final JCAContext jca = new JCAContext();

    EdDsaVerifier(OctetKeyPair jwk) throws JOSEException {
        if (!Curve.Ed25519.equals(jwk.getCurve())) {
            throw new JOSEException("only the Ed25519 curve is supported");
        }
        byte[] raw = jwk.getX().decode();
        if (raw.length != 32) {
            throw new JOSEException("an Ed25519 key has 32 bytes");
        }
        byte[] der = new byte[X509_PREFIX.length + raw.length];
        System.arraycopy(X509_PREFIX, 0, der, 0, X509_PREFIX.length);
        System.arraycopy(raw, 0, der, X509_PREFIX.length, raw.length);
        try {
            key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new JOSEException("not an Ed25519 key", e);
        }
    }

    @Override
    public boolean verify(JWSHeader header, byte[] signingInput, Base64URL signature) throws JOSEException {
        if (!supportedJWSAlgorithms().contains(header.getAlgorithm())) {
            return false;
        }
        try {
            Signature s = Signature.getInstance("Ed25519");
            s.initVerify(key);
            s.update(signingInput);
            return s.verify(signature.decode());
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public Set<JWSAlgorithm> supportedJWSAlgorithms() {
        return Set.of(JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);
    }

    @Override
    public JCAContext getJCAContext() {
        return jca;
    }
}
