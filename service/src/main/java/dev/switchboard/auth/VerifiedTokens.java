package dev.switchboard.auth;

import dev.switchboard.auth.Caller;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tokens verified lately, by their SHA-256 (a token is never kept): a client sends the same token with every call
 * until it expires, and a signature check (tens of microseconds for RS256, more for ES256) per call would cost the
 * gateway much of its throughput. An entry lasts until the token's {@code exp} (plus the clock skew) or
 * {@link #MAX_HOLD_MILLIS}, whichever is first, so a key the issuer withdrew stops admitting its tokens within
 * minutes; at most {@value #MAX_ENTRIES} entries, all forgotten when full (a flood of distinct tokens costs each its
 * check, never memory).
 */
final class VerifiedTokens {

    static final int MAX_ENTRIES = 10_000;
    static final long MAX_HOLD_MILLIS = 5 * 60_000L;

    private record Entry(Caller caller, long untilMillis) {}

    private final ConcurrentHashMap<ByteBuffer, Entry> entries = new ConcurrentHashMap<>();

    Caller get(String token, long nowMillis) {
        Entry e = entries.get(digest(token));
        if (e == null) {
            return null;
        }
        if (nowMillis >= e.untilMillis()) {
            return null;
        }
        return e.caller();
    }

    void put(String token, Caller caller, long untilMillis, long nowMillis) {
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        entries.put(digest(token), new Entry(caller, Math.min(untilMillis, nowMillis + MAX_HOLD_MILLIS)));
    }

    private static ByteBuffer digest(String token) {
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }
}
