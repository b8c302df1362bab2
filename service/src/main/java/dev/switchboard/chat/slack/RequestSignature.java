package dev.switchboard.chat.slack;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Slack's v0 request signature: {@code v0=} + hex HMAC-SHA256 of {@code v0:<timestamp>:<raw body>} with the app's
 * signing secret. Checked on the raw bytes, compared in constant time (the SDK's own verifier uses
 * {@code String.equals}), and only within five minutes of now in either direction: a replayed or a
 * future-dated request is refused like a forged one.
 */
final class RequestSignature {

    static final Duration WINDOW = Duration.ofMinutes(5);

    private final SecretKeySpec key;

    RequestSignature(String signingSecret) {
        this.key = new SecretKeySpec(signingSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** Why the request is refused, or null when it is Slack's. Never says anything about the secret. */
    String problem(String timestamp, String signature, byte[] body, Instant now) {
        if (timestamp == null || signature == null) {
            return "the request is not signed (X-Slack-Request-Timestamp and X-Slack-Signature are required)";
        }
        long seconds;
        try {
            seconds = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            return "X-Slack-Request-Timestamp is not a number of seconds";
        }
        // compared without a subtraction: now - seconds overflows for a timestamp near Long.MIN_VALUE, and
        // Math.abs(Long.MIN_VALUE) is negative, which would pass any window
        if (seconds < now.getEpochSecond() - WINDOW.toSeconds() || seconds > now.getEpochSecond() + WINDOW.toSeconds()) {
            return "X-Slack-Request-Timestamp is more than 5 minutes from now (a replay, or a clock out of step)";
        }
        byte[] expected = sign(timestamp.trim(), body).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, signature.trim().getBytes(StandardCharsets.US_ASCII))) {
            return "X-Slack-Signature does not match the body (is the signing secret the app's?)";
        }
        return null;
    }

    String sign(String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(("v0:" + timestamp + ":").getBytes(StandardCharsets.UTF_8));
            return "v0=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
