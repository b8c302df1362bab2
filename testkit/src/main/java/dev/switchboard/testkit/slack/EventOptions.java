package dev.switchboard.testkit.slack;

/**
 * How one HTTP event delivery is sent: as Slack would, or as a retry, or with a signature a receiver must refuse.
 *
 * @param eventId the envelope's {@code event_id}; null for a fresh {@code Ev…} id (give the first delivery's id to a
 *     retry)
 * @param retryNum {@code X-Slack-Retry-Num}; null to leave the header out (a first delivery)
 * @param retryReason {@code X-Slack-Retry-Reason}, e.g. {@code http_timeout}; null to leave it out
 * @param forgeSignature true to sign with a wrong secret, so the signature does not verify
 * @param timestampShiftSeconds added to the current time for {@code X-Slack-Request-Timestamp} (and the signature,
 *     which stays valid for that timestamp): e.g. -600 for a stale request, +600 for one from the future
 */
public record EventOptions(
        String eventId,
        Integer retryNum,
        String retryReason,
        boolean forgeSignature,
        long timestampShiftSeconds) {

    /** A first delivery, signed now with the right secret. */
    public static EventOptions defaults() {
        return new EventOptions(null, null, null, false, 0);
    }

    public EventOptions withEventId(String id) {
        return new EventOptions(id, retryNum, retryReason, forgeSignature, timestampShiftSeconds);
    }

    /** A redelivery of {@code eventId}, e.g. {@code retry("Ev1", 1, "http_timeout")}. */
    public EventOptions retry(String id, int num, String reason) {
        return new EventOptions(id, num, reason, forgeSignature, timestampShiftSeconds);
    }

    public EventOptions forged() {
        return new EventOptions(eventId, retryNum, retryReason, true, timestampShiftSeconds);
    }

    public EventOptions shiftedBy(long seconds) {
        return new EventOptions(eventId, retryNum, retryReason, forgeSignature, seconds);
    }
}
