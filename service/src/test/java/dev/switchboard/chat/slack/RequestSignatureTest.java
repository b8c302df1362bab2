package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The v0 signature: on the raw bytes, constant-time, five minutes either way; refusals never mention the secret. */
class RequestSignatureTest {

    private static final String SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
    private final RequestSignature signature = new RequestSignature(SECRET);
    private final Instant now = Instant.parse("2026-12-01T12:00:00Z");
    private final byte[] body = "{\"type\":\"event_callback\",\"event_id\":\"Ev1\"}".getBytes(StandardCharsets.UTF_8);

    private String ts(long offsetSeconds) {
        return String.valueOf(now.getEpochSecond() + offsetSeconds);
    }

    @Test
    void slacksDocumentedExampleVerifies() {
        // the example of Slack's "Verifying requests from Slack" page
        RequestSignature docs = new RequestSignature("8f742231b10e8888abcd99yyyzzz85a5");
        byte[] docBody = ("token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V"
                + "&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text="
                + "&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN"
                + "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c").getBytes(StandardCharsets.UTF_8);
        assertThat(docs.sign("1531420618", docBody))
                .isEqualTo("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503");
    }

    @Test
    void aSignedRequestWithinTheWindowPasses() {
        assertThat(signature.problem(ts(0), signature.sign(ts(0), body), body, now)).isNull();
        assertThat(signature.problem(ts(-299), signature.sign(ts(-299), body), body, now)).isNull();
        assertThat(signature.problem(ts(299), signature.sign(ts(299), body), body, now)).isNull();
    }

    @Test
    void aStaleOrFutureTimestampIsRefusedEvenWhenSigned() {
        assertThat(signature.problem(ts(-301), signature.sign(ts(-301), body), body, now)).contains("5 minutes");
        assertThat(signature.problem(ts(301), signature.sign(ts(301), body), body, now)).contains("5 minutes");
    }

    @Test
    void aTimestampWhoseDistanceFromNowOverflowsIsRefused() {
        // found by HostileInputFuzzTest: X-Slack-Request-Timestamp Long.MIN_VALUE + now, validly signed, was accepted
        // (now - ts overflowed to Long.MIN_VALUE, and Math.abs of it is negative, so "within 5 minutes")
        for (long t : new long[] {Long.MIN_VALUE + now.getEpochSecond(), Long.MIN_VALUE, Long.MAX_VALUE,
                Long.MIN_VALUE + now.getEpochSecond() + 1}) {
            String ts = Long.toString(t);
            assertThat(signature.problem(ts, signature.sign(ts, body), body, now)).as(ts).contains("5 minutes");
        }
    }

    @Test
    void aChangedBodyOrWrongSecretIsRefused() {
        String sig = signature.sign(ts(0), body);
        byte[] changed = "{\"type\":\"event_callback\",\"event_id\":\"Ev2\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(signature.problem(ts(0), sig, changed, now)).contains("does not match");
        String forged = new RequestSignature("another-secret").sign(ts(0), body);
        assertThat(signature.problem(ts(0), forged, body, now)).contains("does not match").doesNotContain(SECRET);
    }

    @Test
    void unsignedOrMalformedHeadersAreRefused() {
        assertThat(signature.problem(null, null, body, now)).contains("not signed");
        assertThat(signature.problem("yesterday", "v0=00", body, now)).contains("not a number");
        assertThat(signature.problem(ts(0), "v0=", body, now)).contains("does not match");
    }
}
