package dev.switchboard.testkit.slack;

import static org.assertj.core.api.Assertions.assertThat;

import com.slack.api.app_backend.SlackSignature;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Signed HTTP-mode deliveries to a tiny receiver that checks them with the SDK's own SlackSignature.Verifier. */
class FakeSlackEventsTest extends FakeSlackTestSupport {

    private static final String SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

    private record Received(MultiMap headers, String body) {
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private String url;
    private SlackEvents events;

    @BeforeEach
    void startReceiver() {
        SlackSignature.Verifier verifier = new SlackSignature.Verifier(new SlackSignature.Generator(SECRET));
        HttpServer server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(buffer -> {
            String body = buffer.toString(StandardCharsets.UTF_8);
            received.add(new Received(MultiMap.caseInsensitiveMultiMap().addAll(request.headers()), body));
            String ts = request.getHeader(SlackSignature.HeaderNames.X_SLACK_REQUEST_TIMESTAMP);
            String signature = request.getHeader(SlackSignature.HeaderNames.X_SLACK_SIGNATURE);
            if (!verifier.isValid(ts, body, signature, System.currentTimeMillis())) {
                request.response().setStatusCode(401).end("invalid signature");
            } else if (body.startsWith("{") && "url_verification".equals(new JsonObject(body).getString("type"))) {
                request.response().end(new JsonObject(body).getString("challenge"));
            } else {
                request.response().end("ok");
            }
        }));
        url = "http://127.0.0.1:" + join(server.listen(0, "127.0.0.1")).actualPort() + "/slack/events";
        events = fake.events(SECRET);
    }

    @Test
    void deliveredEventIsSignedAndEnveloped() {
        String ts = fake.postAsUser("C1", null, "U1", "<@UBOT> status?");
        Delivery delivery = events.deliver(url, fake.mentionEvent("C1", ts), EventOptions.defaults());

        assertThat(delivery.status()).isEqualTo(200);
        assertThat(delivery.eventId()).startsWith("Ev");
        Received got = received.get(0);
        assertThat(got.headers().get("Content-Type")).startsWith("application/json");
        assertThat(got.headers().get("X-Slack-Retry-Num")).isNull();
        JsonObject envelope = new JsonObject(got.body());
        assertThat(envelope.getString("type")).isEqualTo("event_callback");
        assertThat(envelope.getString("team_id")).isEqualTo("T0001");
        assertThat(envelope.getString("api_app_id")).isEqualTo("A0001");
        assertThat(envelope.getString("event_id")).isEqualTo(delivery.eventId());
        assertThat(envelope.getLong("event_time")).isPositive();
        assertThat(envelope.getJsonArray("authorizations").getJsonObject(0).getString("user_id")).isEqualTo("UBOT");
        JsonObject event = envelope.getJsonObject("event");
        assertThat(event.getString("type")).isEqualTo("app_mention");
        assertThat(event.getString("ts")).isEqualTo(ts);
        assertThat(event.getString("text")).isEqualTo("<@UBOT> status?");
        // the hand signer agrees with the SDK's generator
        String sdk = new SlackSignature.Generator(SECRET).generate("1767225600", got.body());
        assertThat(new SlackSigner(SECRET).sign("1767225600", got.body())).isEqualTo(sdk);
    }

    @Test
    void retryCarriesTheHeadersAndTheSameEventId() {
        Delivery first = events.deliver(url, SlackEvents.message("C1", "U1", "hi", "1767225600.000100", null),
                EventOptions.defaults());
        Delivery retry = events.deliver(url, SlackEvents.message("C1", "U1", "hi", "1767225600.000100", null),
                EventOptions.defaults().retry(first.eventId(), 1, "http_timeout"));

        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.eventId()).isEqualTo(first.eventId());
        Received got = received.get(1);
        assertThat(got.headers().get("X-Slack-Retry-Num")).isEqualTo("1");
        assertThat(got.headers().get("X-Slack-Retry-Reason")).isEqualTo("http_timeout");
        assertThat(new JsonObject(got.body()).getString("event_id")).isEqualTo(first.eventId());
    }

    @Test
    void forgedAndStaleDeliveriesDoNotVerify() {
        JsonObject event = SlackEvents.message("C1", "U1", "hi", "1767225600.000100", null);
        assertThat(events.deliver(url, event, EventOptions.defaults().forged()).status()).isEqualTo(401);
        assertThat(events.deliver(url, event, EventOptions.defaults().shiftedBy(-600)).status()).isEqualTo(401);

        // a timestamp from the future is signed correctly: the SDK's verifier checks only age, a receiver must bound it
        Delivery future = events.deliver(url, event, EventOptions.defaults().shiftedBy(600));
        long sent = Long.parseLong(future.requestHeaders().get(SlackSigner.TIMESTAMP_HEADER));
        assertThat(sent).isGreaterThan(System.currentTimeMillis() / 1000 + 500);
    }

    @Test
    void urlVerificationEchoesTheChallenge() {
        Delivery delivery = events.urlVerification(url, "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P");
        assertThat(delivery.status()).isEqualTo(200);
        assertThat(delivery.body()).isEqualTo("3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P");
    }

    @Test
    void interactionIsAFormWithTheUrlencodedPayload() {
        JsonObject payload = new JsonObject().put("type", "block_actions").put("trigger_id", "1.2.abc")
                .put("user", new JsonObject().put("id", "U1"));
        Delivery delivery = events.interaction(url, payload);

        assertThat(delivery.status()).isEqualTo(200);
        Received got = received.get(0);
        assertThat(got.headers().get("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(got.body()).startsWith("payload=");
        String json = URLDecoder.decode(got.body().substring("payload=".length()), StandardCharsets.UTF_8);
        assertThat(new JsonObject(json)).isEqualTo(payload);
    }
}
