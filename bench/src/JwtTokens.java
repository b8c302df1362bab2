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
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import java.util.List;

/**
 * Bench-only token issuer (not part of the product): a fresh ES256 (P-256) and RS256 (2048-bit) key, their public JWKS
 * (for the gateway's inline {@code jwks}) and signed tokens of issuer ISSUER for audience AUDIENCE, valid for two hours.
 * Writes DIR/jwks.json, DIR/es256-one.txt (one token), DIR/es256-many.txt and DIR/rs256-many.txt (COUNT tokens each,
 * every one distinct: its own sub and jti), one token per line.
 *
 * <p>Usage: {@code java -cp switchboard-app.jar:classes JwtTokens DIR COUNT ISSUER AUDIENCE}
 */
public final class JwtTokens {

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        String issuer = args[2];
        String audience = args[3];
        ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("bench-ec").generate();
        RSAKey rsa = new RSAKeyGenerator(2048).keyID("bench-rsa").generate();
        Files.writeString(dir.resolve("jwks.json"),
                new JWKSet(List.<JWK>of(ec.toPublicJWK(), rsa.toPublicJWK())).toString(), StandardCharsets.UTF_8);
        ECDSASigner es = new ECDSASigner(ec);
        RSASSASigner rs = new RSASSASigner(rsa);
        write(dir.resolve("es256-one.txt"), 1, es, JWSAlgorithm.ES256, ec.getKeyID(), issuer, audience);
        write(dir.resolve("es256-many.txt"), count, es, JWSAlgorithm.ES256, ec.getKeyID(), issuer, audience);
        write(dir.resolve("rs256-many.txt"), count, rs, JWSAlgorithm.RS256, rsa.getKeyID(), issuer, audience);
    }

    private static void write(Path file, int count, JWSSigner signer, JWSAlgorithm alg, String kid, String issuer,
            String audience) throws Exception {
        long now = System.currentTimeMillis();
        JWSHeader header = new JWSHeader.Builder(alg).keyID(kid).type(JOSEObjectType.JWT).build();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
            for (int i = 0; i < count; i++) {
                JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(issuer).audience(audience)
                        .subject("bench-" + (i % 50)).jwtID(alg.getName() + "-" + i)
                        .claim("groups", List.of("bench")).issueTime(new Date(now))
                        .expirationTime(new Date(now + 2 * 3600_000L)).build();
                SignedJWT jwt = new SignedJWT(header, claims);
                jwt.sign(signer);
                out.println(jwt.serialize());
            }
        }
    }
}
