package dev.switchboard.testkit.slack;

import java.util.Map;

/**
 * What a receiver answered to one signed delivery, and what was sent, so a test can resend it byte for byte.
 *
 * @param status the HTTP status
 * @param body the response body
 * @param eventId the {@code event_id} sent; null for url_verification and interactions
 * @param requestBody the raw body sent
 * @param requestHeaders the Slack headers sent (signature, timestamp, retry headers)
 */
public record Delivery(int status, String body, String eventId, String requestBody, Map<String, String> requestHeaders) {

    public Delivery {
        requestHeaders = Map.copyOf(requestHeaders);
    }
}
