package dev.switchboard.testkit.slack;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Slack's side of the Events API in HTTP mode: wraps inner events in the {@code event_callback} envelope, signs them
 * (v0) and POSTs them to the product's Request URL. Calls block and return the receiver's answer: a test sends from
 * its own thread and asserts on the status at once. Also builds the inner events ({@link #appMention},
 * {@link #message}) and the envelopes Socket Mode carries.
 */
public final class SlackEvents {

    private static final AtomicLong EVENT_IDS = new AtomicLong();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private final FakeSlackOptions options;
    private final SlackSigner signer;
    private final SlackSigner forger;

    public SlackEvents(FakeSlackOptions options, String signingSecret) {
        this.options = options;
        this.signer = new SlackSigner(signingSecret);
        this.forger = new SlackSigner(signingSecret + "-forged");
    }

    public SlackSigner signer() {
        return signer;
    }

    /** An {@code app_mention} event; {@code threadTs} null for a mention outside a thread. */
    public static JsonObject appMention(String channel, String user, String text, String ts, String threadTs) {
        return inner("app_mention", channel, user, text, ts, threadTs);
    }

    /** A {@code message} event as a person's message produces it; {@code threadTs} null outside a thread. */
    public static JsonObject message(String channel, String user, String text, String ts, String threadTs) {
        return inner("message", channel, user, text, ts, threadTs).put("channel_type", "channel");
    }

    /** The same event as a direct message ({@code channel_type: im}). */
    public static JsonObject directMessage(String channel, String user, String text, String ts, String threadTs) {
        return inner("message", channel, user, text, ts, threadTs).put("channel_type", "im");
    }

    private static JsonObject inner(String type, String channel, String user, String text, String ts, String threadTs) {
        JsonObject event = new JsonObject().put("type", type).put("user", user).put("text", text).put("ts", ts)
                .put("channel", channel).put("event_ts", ts);
        if (threadTs != null) {
            event.put("thread_ts", threadTs);
        }
        return event;
    }

    /** A fresh event id, {@code Ev…}. */
    public static String newEventId() {
        return String.format("Ev%010d", EVENT_IDS.incrementAndGet());
    }

    /** The {@code event_callback} envelope around an inner event. */
    public JsonObject envelope(JsonObject event, String eventId) {
        return eventCallback(options, event, eventId);
    }

    static JsonObject eventCallback(FakeSlackOptions options, JsonObject event, String eventId) {
        long now = System.currentTimeMillis() / 1000;
        return new JsonObject()
                .put("token", "verification-token-unused")
                .put("team_id", options.teamId())
                .put("api_app_id", options.appId())
                .put("event", event.copy())
                .put("type", "event_callback")
                .put("event_id", eventId == null ? newEventId() : eventId)
                .put("event_time", now)
                .put("authorizations", new JsonArray().add(new JsonObject()
                        .put("enterprise_id", null)
                        .put("team_id", options.teamId())
                        .put("user_id", options.botUserId())
                        .put("is_bot", true)
                        .put("is_enterprise_install", false)))
                .put("is_ext_shared_channel", false)
                .put("event_context", "4-fake");
    }

    /** Delivers an inner event in its envelope, signed, to {@code url}. */
    public Delivery deliver(String url, JsonObject event, EventOptions eventOptions) {
        JsonObject envelope = envelope(event, eventOptions.eventId());
        return post(url, envelope.encode(), "application/json", eventOptions, envelope.getString("event_id"));
    }

    /** Delivers a whole body as given (any JSON, e.g. an envelope built by hand), signed. */
    public Delivery deliverRaw(String url, String rawBody, String contentType, EventOptions eventOptions) {
        return post(url, rawBody, contentType, eventOptions, eventOptions.eventId());
    }

    /** The {@code url_verification} request Slack sends when a Request URL is configured. */
    public Delivery urlVerification(String url, String challenge) {
        String body = new JsonObject().put("token", "verification-token-unused").put("challenge", challenge)
                .put("type", "url_verification").encode();
        return post(url, body, "application/json", EventOptions.defaults(), null);
    }

    /** An interactive payload (block action, view submission…) as Slack posts it: {@code payload=<urlencoded json>}. */
    public Delivery interaction(String url, JsonObject payload) {
        return interaction(url, payload, EventOptions.defaults());
    }

    public Delivery interaction(String url, JsonObject payload, EventOptions eventOptions) {
        String body = "payload=" + URLEncoder.encode(payload.encode(), StandardCharsets.UTF_8);
        return post(url, body, "application/x-www-form-urlencoded", eventOptions, null);
    }

    private Delivery post(String url, String body, String contentType, EventOptions eventOptions, String eventId) {
        String timestamp = String.valueOf(System.currentTimeMillis() / 1000 + eventOptions.timestampShiftSeconds());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(SlackSigner.TIMESTAMP_HEADER, timestamp);
        headers.put(SlackSigner.SIGNATURE_HEADER,
                (eventOptions.forgeSignature() ? forger : signer).sign(timestamp, body));
        if (eventOptions.retryNum() != null) {
            headers.put("X-Slack-Retry-Num", String.valueOf(eventOptions.retryNum()));
        }
        if (eventOptions.retryReason() != null) {
            headers.put("X-Slack-Retry-Reason", eventOptions.retryReason());
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType)
                .header("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Delivery(response.statusCode(), response.body(), eventId, body, headers);
        } catch (IOException e) {
            throw new UncheckedIOException("delivery to " + url + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted delivering to " + url, e);
        }
    }
}
