package dev.switchboard.gateway.support;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Arrays;
import java.util.Date;
import java.util.List;

/** Test tokens as an identity provider would mint them: RSA, EC and Ed25519 keys, and claims to taste. */
public final class Tokens {

    private Tokens() {}

    public static RSAKey rsa(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static ECKey ec(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** An Ed25519 key pair from the JDK, and its public JWK (nimbus signs Ed25519 only with Tink). */
    public record Ed(KeyPair pair, OctetKeyPair publicJwk) {}

    public static Ed ed25519(String kid) {
        try {
            KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            byte[] der = pair.getPublic().getEncoded();
            byte[] raw = Arrays.copyOfRange(der, der.length - 32, der.length);
            return new Ed(pair, new OctetKeyPair.Builder(Curve.Ed25519, Base64URL.encode(raw)).keyID(kid).build());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The public JWKS of some keys. */
    public static String jwks(JWK... keys) {
        return new JWKSet(Arrays.stream(keys).map(JWK::toPublicJWK).toList()).toString(true);
    }

    public static JWTClaimsSet.Builder claims(String issuer, String audience, String subject) {
        long now = System.currentTimeMillis();
        return new JWTClaimsSet.Builder().issuer(issuer).audience(List.of(audience)).subject(subject)
                .issueTime(new Date(now)).expirationTime(new Date(now + 600_000));
    }

    public static String sign(JWK key, JWTClaimsSet claims) {
        try {
            JWSAlgorithm alg;
            JWSSigner signer;
            if (key instanceof RSAKey rsa) {
                alg = JWSAlgorithm.RS256;
                signer = new RSASSASigner(rsa);
            } else {
                alg = JWSAlgorithm.ES256;
                signer = new ECDSASigner((ECKey) key);
            }
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).type(JOSEObjectType.JWT)
                    .build(), claims);
            jwt.sign(signer);
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static String signEd(Ed key, JWTClaimsSet claims) {
        try {
            String header = b64("{\"alg\":\"EdDSA\",\"kid\":\"" + key.publicJwk().getKeyID() + "\",\"typ\":\"JWT\"}");
            String input = header + "." + b64(claims.toString());
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(key.pair().getPrivate());
            s.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + Base64URL.encode(s.sign());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** HS256 keyed with the RSA public key's encoding: the HS/RS confusion attack. */
    public static String hs256WithPublicKey(RSAKey key, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.getKeyID()).build(), claims);
            jwt.sign(new MACSigner(Arrays.copyOf(key.toRSAPublicKey().getEncoded(), 294)));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** An unsigned token: {@code alg: none}. */
    public static String unsigned(JWTClaimsSet claims) {
        return b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + b64(claims.toString()) + ".";
    }

    public static String b64(String json) {
        return Base64URL.encode(json.getBytes(StandardCharsets.UTF_8)).toString();
    }
}
