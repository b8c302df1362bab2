package dev.switchboard.testkit.slack;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Slack's v0 request signature: {@code "v0=" + hex(HMAC-SHA256(secret, "v0:" + timestamp + ":" + rawBody))}.
 * In one place so the fake's deliveries and a test signing by hand agree byte for byte.
 */
public final class SlackSigner {

    public static final String SIGNATURE_HEADER = "X-Slack-Signature";
    public static final String TIMESTAMP_HEADER = "X-Slack-Request-Timestamp";

    private final byte[] secret;

    public SlackSigner(String signingSecret) {
        this.secret = signingSecret.getBytes(StandardCharsets.UTF_8);
    }

    /** The {@code X-Slack-Signature} value for this timestamp (epoch seconds, as sent) and raw body. */
    public String sign(String timestamp, String rawBody) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            byte[] digest = mac.doFinal(("v0:" + timestamp + ":" + rawBody).getBytes(StandardCharsets.UTF_8));
            return "v0=" + HexFormat.of().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** The signature for a request sent now. */
    public String signNow(String rawBody) {
        return sign(String.valueOf(System.currentTimeMillis() / 1000), rawBody);
    }
}
