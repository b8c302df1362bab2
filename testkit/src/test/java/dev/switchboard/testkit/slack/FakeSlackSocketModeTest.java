package dev.switchboard.testkit.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import com.slack.api.socket_mode.SocketModeClient;
import com.slack.api.socket_mode.request.EventsApiEnvelope;
import com.slack.api.socket_mode.response.AckResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Socket Mode through the SDK's own client on the Java-WebSocket backend. The SDK reconnects after a drop only from
 * its session monitor: first check 5 s after the client is built, then 5 s after each check ends, a check of a
 * closed session reconnecting at once (an open one is pinged for up to 3 s). So a reconnect takes up to ~10 s,
 * more on a loaded machine; the tests wait for it with {@link #RECONNECT}.
 */
@Tag("server")
class FakeSlackSocketModeTest extends FakeSlackTestSupport {

    private static final Duration RECONNECT = Duration.ofSeconds(60);

    private SocketModeClient client;
    private final List<EventsApiEnvelope> received = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeClient() throws Exception {
        if (client != null) {
            client.close();
        }
    }

    /** A client that acks every events_api envelope. */
    private SocketModeClient connectAcking() throws Exception {
        client = slack.socketMode(fake.options().appToken(), SocketModeClient.Backend.JavaWebSocket);
        client.addEventsApiEnvelopeListener(envelope -> {
            received.add(envelope);
            client.sendSocketModeResponse(new AckResponse(envelope.getEnvelopeId()));
        });
        client.connect();
        await().until(fake::connected);
        return client;
    }

    private List<String> receivedEventTexts() {
        return received.stream()
                .map(e -> e.getPayload().getAsJsonObject().getAsJsonObject("event").get("text").getAsString())
                .toList();
    }

    @Test
    void pushedEventIsReceivedAndAcked() throws Exception {
        connectAcking();
        String ts = fake.postAsUser("C1", null, "U1", "<@UBOT> hi");
        String envelopeId = fake.pushEvent(fake.mentionEvent("C1", ts));

        await().until(() -> fake.acked(envelopeId));
        assertThat(fake.acks()).singleElement()
                .satisfies(ack -> assertThat(ack.getString("envelope_id")).isEqualTo(envelopeId));
        EventsApiEnvelope envelope = received.get(0);
        assertThat(envelope.getEnvelopeId()).isEqualTo(envelopeId);
        assertThat(envelope.getType()).isEqualTo("events_api");
        assertThat(envelope.getRetryAttempt()).isZero();
        JsonObject payload = envelope.getPayload().getAsJsonObject();
        assertThat(payload.get("type").getAsString()).isEqualTo("event_callback");
        assertThat(payload.get("team_id").getAsString()).isEqualTo("T0001");
        assertThat(payload.get("event_id").getAsString()).startsWith("Ev");
        JsonObject event = payload.getAsJsonObject("event");
        assertThat(event.get("type").getAsString()).isEqualTo("app_mention");
        assertThat(event.get("ts").getAsString()).isEqualTo(ts);
        assertThat(event.get("user").getAsString()).isEqualTo("U1");
        assertThat(fake.connections()).isEqualTo(1);
        assertThat(fake.calls("apps.connections.open")).isNotEmpty();
    }

    @Test
    void eventPushedBeforeConnectingIsDeliveredOnConnect() throws Exception {
        String envelopeId = fake.pushEvent(SlackEvents.message("D1", "U1", "early", "1767225600.000100", null));
        assertThat(fake.connected()).isFalse();
        connectAcking();
        await().until(() -> fake.acked(envelopeId));
        assertThat(receivedEventTexts()).containsExactly("early");
    }

    @Test
    void interactionsArriveAsInteractiveEnvelopes() throws Exception {
        client = slack.socketMode(fake.options().appToken(), SocketModeClient.Backend.JavaWebSocket);
        client.addInteractiveEnvelopeListener(envelope -> {
            assertThat(envelope.getPayload().getAsJsonObject().get("type").getAsString()).isEqualTo("block_actions");
            client.sendSocketModeResponse(new AckResponse(envelope.getEnvelopeId()));
        });
        client.connect();
        String envelopeId = fake.pushInteraction(new io.vertx.core.json.JsonObject().put("type", "block_actions")
                .put("user", new io.vertx.core.json.JsonObject().put("id", "U1")));
        await().until(() -> fake.acked(envelopeId));
    }

    @Test
    void unackedEnvelopesAreRedeliveredWithTheRetryAttempt() throws Exception {
        client = slack.socketMode(fake.options().appToken(), SocketModeClient.Backend.JavaWebSocket);
        client.addEventsApiEnvelopeListener(envelope -> {
            received.add(envelope);
            if (envelope.getRetryAttempt() > 0) {
                client.sendSocketModeResponse(new AckResponse(envelope.getEnvelopeId()));
            }
        });
        client.connect();
        String envelopeId = fake.pushEvent(SlackEvents.message("C1", "U1", "slow", "1767225600.000100", null));
        await().until(() -> received.size() == 1);
        assertThat(fake.acked(envelopeId)).isFalse();

        assertThat(fake.redeliverUnacked(1)).containsExactly(envelopeId);
        await().until(() -> fake.acked(envelopeId));
        assertThat(received).extracting(EventsApiEnvelope::getRetryAttempt).containsExactly(0, 1);
        assertThat(received.get(1).getRetryReason()).isEqualTo("timeout");
        assertThat(fake.redeliverUnacked(2)).isEmpty();
    }

    @Test
    void afterADropTheSessionMonitorReconnectsAndTheQueuedEventArrives() throws Exception {
        connectAcking();
        // Vert.x answers the SDK's ping frames: the session monitor sees a live connection
        assertThat(client.verifyConnection()).isTrue();

        fake.dropSocket();
        await().until(() -> !fake.connected());
        String envelopeId = fake.pushEvent(SlackEvents.message("C1", "U1", "while away", "1767225600.000100", null));

        await().atMost(RECONNECT).until(() -> fake.acked(envelopeId));
        assertThat(fake.connections()).isEqualTo(2);
        assertThat(receivedEventTexts()).containsExactly("while away");
        assertThat(fake.calls("apps.connections.open")).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void refreshRequestMakesTheClientOpenANewConnection() throws Exception {
        connectAcking();
        int opened = fake.calls("apps.connections.open").size();

        fake.requestRefresh();
        await().until(() -> fake.connections() == 2 && fake.connected());
        assertThat(fake.calls("apps.connections.open")).hasSize(opened + 1);

        String envelopeId = fake.pushEvent(SlackEvents.message("C1", "U1", "after refresh", "1767225600.000100", null));
        await().until(() -> fake.acked(envelopeId));
    }
}
