package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.TaskState;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The ways the testkit agent can break the contract on purpose. */
class MisbehaviorTest extends AgentTestSupport {

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void messageDirectiveRepliesWithABareMessageAndNoTask(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode response = client.call(A2aMethod.SEND_MESSAGE, WireClient.params(client.message("/message\nhi")));
        List<JsonNode> streamed = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("/message\nho")));

        assertThat(client.kind(response.get("result"))).isEqualTo("message");
        JsonNode message = client.unwrap(response.get("result"));
        assertThat(WireClient.partsText(message.path("parts"))).isEqualTo("hi");
        assertThat(message.path("contextId").asText()).isNotEmpty();
        assertThat(message.has("taskId")).isFalse();
        assertThat(streamed).singleElement().satisfies(r -> assertThat(client.kind(r)).isEqualTo("message"));
    }

    @Test
    void httpDirectiveAnswersWithThatStatusAndNoJsonRpcBody() {
        WireClient client = client(ProtocolVersion.V1_0);

        HttpResponse<String> unauthorized = client.post(client.request("SendMessage", WireClient.params(client.message("/http 401"))));
        HttpResponse<String> redirect = client.post(client.request("SendMessage", WireClient.params(client.message("/http 302"))));

        assertThat(unauthorized.statusCode()).isEqualTo(401);
        assertThat(unauthorized.body()).doesNotContain("jsonrpc");
        assertThat(redirect.statusCode()).isEqualTo(302);
        assertThat(redirect.headers().firstValue("Location")).hasValue(agent.url());
    }

    @Test
    void serverErrorBeforeAnyEventOnAStream() {
        WireClient client = client(ProtocolVersion.V0_3);
        SseCapture stream = client.stream(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("/http 503")));
        stream.awaitEnd();

        assertThat(stream.status()).isEqualTo(503);
        assertThat(stream.events()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void dropCutsTheStreamAfterTheGivenEventsWhileTheTaskGoesOn(ProtocolVersion version) {
        WireClient client = client(version);
        SseCapture stream = client.stream(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/drop 2 /slow 200\nsurvivor")));
        stream.awaitEnd();

        assertThat(stream.events()).hasSize(2);
        JsonNode task = client.unwrap(stream.events().get(0).get("result"));
        ObjectNode get = WireClient.JSON.createObjectNode().put("id", task.path("id").asText());
        Awaitility.await().untilAsserted(() ->
                assertThat(WireClient.state(client.call(A2aMethod.GET_TASK, get).get("result"))).isEqualTo(TaskState.COMPLETED));
        assertThat(WireClient.artifactText(client.call(A2aMethod.GET_TASK, get).get("result"))).isEqualTo("survivor");
    }

    @Test
    void dropOnASynchronousSendClosesTheConnectionWithoutAnswer() {
        WireClient client = client(ProtocolVersion.V1_0);
        String request = client.request("SendMessage", WireClient.params(client.message("/drop 0\nlost")));

        Throwable failure = catchFailure(() -> client.post(request));

        assertThat(failure).isNotNull();
        Awaitility.await().until(() -> agent.recorder().messageIds().size() > 0);
    }

    @Test
    void holdDelaysEvenTheResponseHeaders() {
        HttpClient http = HttpClient.newHttpClient();
        WireClient client = client(ProtocolVersion.V1_0);
        HttpRequest request = HttpRequest.newBuilder(URI.create(agent.url()))
                .timeout(Duration.ofMillis(150))
                .header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(client.request("SendStreamingMessage",
                        WireClient.params(client.message("/hold 1000 /stream 2")))))
                .build();

        Throwable failure = catchFailure(() -> http.send(request, HttpResponse.BodyHandlers.ofString()));

        assertThat(failure).isInstanceOf(HttpTimeoutException.class);
    }

    @Test
    void holdThenBehavesAsTheRestOfTheLine() {
        long started = System.nanoTime();
        JsonNode task = client(ProtocolVersion.V0_3).sendText("/hold 200 /empty");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(WireClient.state(task)).isEqualTo(TaskState.COMPLETED);
    }

    @Test
    void silenceNeverAnswers() {
        HttpClient http = HttpClient.newHttpClient();
        WireClient client = client(ProtocolVersion.V1_0);
        HttpRequest request = HttpRequest.newBuilder(URI.create(agent.url()))
                .timeout(Duration.ofMillis(300))
                .header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(client.request("SendMessage", WireClient.params(client.message("/silence")))))
                .build();

        assertThat(catchFailure(() -> http.send(request, HttpResponse.BodyHandlers.ofString())))
                .isInstanceOf(HttpTimeoutException.class);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void newContextIgnoresTheContextTheClientSent(ProtocolVersion version) {
        WireClient client = client(version);
        ObjectNode message = client.message("/newcontext\nagain");
        message.put("contextId", "ctx-mine");

        JsonNode task = client.sendResult(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message)));

        assertThat(task.path("contextId").asText()).isNotEqualTo("ctx-mine").isNotEmpty();
        assertThat(WireClient.artifactText(task)).isEqualTo("again");
    }

    private interface Call {
        void run() throws IOException, InterruptedException;
    }

    private static Throwable catchFailure(Call call) {
        try {
            call.run();
            return null;
        } catch (IOException | InterruptedException | RuntimeException e) {
            return e instanceof java.io.UncheckedIOException u ? u.getCause() : e;
        }
    }
}
