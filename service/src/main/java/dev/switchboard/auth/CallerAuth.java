package dev.switchboard.auth;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * G11: who is calling. With API keys configured, a caller must send {@code Authorization: Bearer
 * <key>} and is known by the key's name; without keys, by its remote address. Keys are compared in
 * constant time and never logged.
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

    public CallerAuth(List<ApiKey> keys) {
        this.keys = List.copyOf(keys);
        this.keyBytes = this.keys.stream().map(k -> k.key().getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
    }

    public boolean required() {
        return !keys.isEmpty();
    }

    /** The caller, or empty when keys are required and none matched. */
    public Optional<Caller> caller(HttpServerRequest request) {
        return Optional.ofNullable(callerOrNull(request));
    }

    /** {@link #caller}, or null instead of empty (the gateway's hot path). */
    public Caller callerOrNull(HttpServerRequest request) {
        if (keys.isEmpty()) {
            return Caller.address(RemoteHosts.of(request.remoteAddress()));
        }
        String presented = bearer(request.getHeader(HttpHeaders.AUTHORIZATION));
        if (presented == null) {
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
