package dev.switchboard.auth;

import dev.switchboard.auth.InvalidToken;
import dev.switchboard.auth.JwtVerifier;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * G11: who is calling. With API keys or JWT issuers configured, a caller must send {@code Authorization: Bearer
 * <key or token>}: a key is known by its name, a JWT ({@link JwtVerifier}) by its caller claim; without either, a
 * caller is known by its remote address. Keys are compared in constant time; neither keys nor tokens are logged.
 */
public final class CallerAuth {

    /** A named API key. */
    public record ApiKey(String name, String key) {
        @Override
        public String toString() {
            return "ApiKey[name=" + name + ", key=***]";
        }
    }

    private final List<ApiKey> keys;
    /** Each key's UTF-8 bytes, in the order of {@link #keys}: encoded once, not per call. */
    private final byte[][] keyBytes;
    /** null when no JWT issuer is configured. */
    private final JwtVerifier jwt;

    public CallerAuth(List<ApiKey> keys) {
        this(keys, null);
    }

    public CallerAuth(List<ApiKey> keys, JwtVerifier jwt) {
        this.keys = List.copyOf(keys);
        this.keyBytes = this.keys.stream().map(k -> k.key().getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        this.jwt = jwt;
    }

    public boolean required() {
        return !keys.isEmpty() || jwt != null;
    }

    /**
     * The caller, or a failed future with {@link Unauthorized}. Complete at once for an API key, a token verified
     * lately or one whose issuer's keys are at hand; a token with an unknown key id completes when its issuer's keys
     * have been fetched again (on whichever thread fetched them).
     */
    public Future<Caller> authenticate(HttpServerRequest request) {
        if (!required()) {
            return Future.succeededFuture(Caller.address(RemoteHosts.of(request.remoteAddress())));
        }
        String presented = bearer(request.getHeader(HttpHeaders.AUTHORIZATION));
        if (presented == null) {
            return Future.failedFuture(Unauthorized.NO_CREDENTIALS);
        }
        Caller key = keyCaller(presented);
        if (key != null) {
            return Future.succeededFuture(key);
        }
        if (jwt != null && JwtVerifier.looksLikeJwt(presented)) {
            return jwt.verify(presented).recover(e -> Future.failedFuture(e instanceof InvalidToken bad
                    ? Unauthorized.invalidToken(bad.description()) : e));
        }
        return Future.failedFuture(Unauthorized.UNKNOWN_KEY);
    }

    /**
     * The API-key caller only (or the address without credentials configured), decided at once: for the web chat,
     * which does not take JWTs.
     */
    public Optional<Caller> apiKeyCaller(HttpServerRequest request) {
        if (!required()) {
            return Optional.of(Caller.address(RemoteHosts.of(request.remoteAddress())));
        }
        String presented = bearer(request.getHeader(HttpHeaders.AUTHORIZATION));
        return presented == null ? Optional.empty() : Optional.ofNullable(keyCaller(presented));
    }

    private Caller keyCaller(String presented) {
        if (keys.isEmpty()) {
            return null;
        }
        byte[] p = presented.getBytes(StandardCharsets.UTF_8);
        String match = null;
        for (int i = 0; i < keyBytes.length; i++) {
            // check every key so that timing does not tell which one matched
            if (MessageDigest.isEqual(p, keyBytes[i])) {
                match = keys.get(i).name();
            }
        }
        return match == null ? null : Caller.apiKey(match);
    }

    /** The token of an {@code Authorization: Bearer} header, or null. */
    public static String bearer(String authorization) {
        if (authorization == null || authorization.length() < 8
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = authorization.substring(7).trim();
        return token.isEmpty() ? null : token;
    }
}
