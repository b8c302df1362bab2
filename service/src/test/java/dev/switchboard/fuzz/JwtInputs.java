package dev.switchboard.fuzz;

import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.util.Base64URL;
import dev.switchboard.gateway.support.Tokens;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Hostile bearer JWTs at the gateway (issue 24): huge, nested, wrong claim types, bad base64, garbage JSON in header
 * or payload, {@code alg: none}/HS/unknown algorithms, and tokens validly signed by the configured issuer's key whose
 * claims are hostile. Each must be a 401 (or a 200 for the rare valid one), never a 5xx.
 */
final class JwtInputs {

    static final String ISSUER = "https://fuzz.idp/";
    static final ECKey KEY = Tokens.ec("fuzz-1");
    static final String JWKS = Tokens.jwks(KEY);

    private JwtInputs() {}

    private static final String[] HEADERS = {"{\"alg\":\"ES256\",\"kid\":\"fuzz-1\"}", "{\"alg\":\"none\"}",
        "{\"alg\":\"HS256\",\"kid\":\"fuzz-1\"}", "{\"alg\":\"ES256\"}", "{\"alg\":\"ES256\",\"kid\":\"nope\"}",
        "{\"alg\":\"RS256\",\"kid\":\"fuzz-1\"}", "{\"alg\":7}", "{\"alg\":null}", "[]", "\"x\"", "{", "{\"alg\":\"ES256\","
        + "\"cty\":\"JWT\",\"kid\":\"fuzz-1\"}", "{\"alg\":\"ES256\",\"crit\":[\"x\"],\"x\":1,\"kid\":\"fuzz-1\"}",
        "{\"alg\":\"EdDSA\",\"kid\":\"fuzz-1\"}", "{\"alg\":\"" + "A".repeat(3000) + "\"}", "{\"alg\":\"ES256\","
        + "\"kid\":{\"a\":[1,2]}}", "{\"alg\":\"dir\",\"enc\":\"A128GCM\"}"};

    private static final String[] VALUES = {"\"" + ISSUER + "\"", "\"fuzz\"", "[\"fuzz\"]", "7", "-1", "1e308", "null",
        "true", "{}", "[]", "[[[[[[[[[[]]]]]]]]]]", "\"\"", "\"" + "x".repeat(600) + "\"", "9999999999", "\"9999999999\"",
        "[1,{\"a\":null}]", "\"a b c\""};

    private static final String[] CLAIMS = {"iss", "aud", "sub", "exp", "nbf", "iat", "scope", "groups"};

    static Inputs.Input input(long index, Random r) {
        String token = token(r);
        List<String[]> headers = new ArrayList<>();
        headers.add(new String[] {"Content-Type", "application/json"});
        headers.add(new String[] {"Authorization", (r.nextInt(10) == 0 ? "bearer  " : "Bearer ") + token});
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}]}}}"
                .getBytes(StandardCharsets.UTF_8);
        return new Inputs.Input(index, Inputs.Target.JWT, "POST", "/a2a/echo", headers, body, null,
                "jwt " + Math.min(token.length(), 20000));
    }

    private static String token(Random r) {
        String header = HEADERS[r.nextInt(HEADERS.length)];
        String payload = payload(r);
        String h = b64(header);
        String p = b64(payload);
        switch (r.nextInt(12)) {
            case 0 -> {
                return h + "." + p + "." + "A".repeat(r.nextInt(40_000)); // huge
            }
            case 1 -> {
                return h + "." + p; // two parts
            }
            case 2 -> {
                return h + "." + p + ".x.y.z"; // JWE-like
            }
            case 3 -> {
                return "eyJ" + "!!!%%%" + "." + p + ".sig"; // bad base64
            }
            case 4 -> {
                return h + "." + b64("[".repeat(3000) + "]".repeat(3000)) + ".sig"; // nested
            }
            case 5 -> {
                return h + "." + b64(signedNested(r)) + "." + "sig"; // a token in a token
            }
            default -> {
                return sign(h + "." + p); // signed by the issuer's own key: only the claims are hostile
            }
        }
    }

    private static String payload(Random r) {
        StringBuilder b = new StringBuilder("{");
        int n = r.nextInt(CLAIMS.length + 1);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append('"').append(CLAIMS[r.nextInt(CLAIMS.length)]).append("\":").append(VALUES[r.nextInt(VALUES.length)]);
        }
        if (r.nextInt(4) == 0) {
            return r.nextBoolean() ? "garbage{" : "[1,2,3]";
        }
        return b.append('}').toString();
    }

    private static String signedNested(Random r) {
        return "{\"iss\":\"" + ISSUER + "\",\"aud\":\"fuzz\",\"sub\":\"x\",\"exp\":9999999999,\"jwt\":\"" + sign(b64(
                "{\"alg\":\"ES256\",\"kid\":\"fuzz-1\"}") + "." + b64("{\"sub\":\"inner\"}")) + "\"}";
    }

    private static String sign(String input) {
        try {
            Signature s = Signature.getInstance("SHA256withECDSAinP1363Format");
            s.initSign(KEY.toECPrivateKey());
            s.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + Base64URL.encode(s.sign());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String b64(String s) {
        return Base64URL.encode(s.getBytes(StandardCharsets.UTF_8)).toString();
    }
}
