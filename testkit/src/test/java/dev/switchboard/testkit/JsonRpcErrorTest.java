package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The JSON-RPC errors the agent answers, each with its code and a message naming the problem. */
class JsonRpcErrorTest extends AgentTestSupport {

    private JsonNode raw(String body, String version) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(agent.url()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (version != null) {
            request.header("A2A-Version", version);
        }
        HttpResponse<String> response = WireClient.send(request.build());
        assertThat(response.statusCode()).isEqualTo(200);
        return WireClient.parse(response.body());
    }

    private static int code(JsonNode response) {
        return response.path("error").path("code").asInt();
    }

    @Test
    void invalidJsonIsAParseErrorWithANullId() {
        JsonNode response = raw("{not json", null);

        assertThat(code(response)).isEqualTo(-32700);
        assertThat(response.get("id").isNull()).isTrue();
    }

    @Test
    void jsonThatIsNotAJsonRpcRequestIsAnInvalidRequest() {
        assertThat(code(raw("{\"jsonrpc\":\"2.0\",\"id\":1}", "1.0"))).isEqualTo(-32600);
        assertThat(code(raw("[1,2]", null))).isIn(-32600, -32602);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void unknownMethodIsMethodNotFound(ProtocolVersion version) {
        assertThat(code(client(version).call("tasks/frobnicate", WireClient.JSON.createObjectNode()))).isEqualTo(-32601);
    }

    @Test
    void listTasksDoesNotExistInZeroThree() {
        JsonNode response = client(ProtocolVersion.V0_3).call("tasks/list", WireClient.JSON.createObjectNode());

        assertThat(code(response)).isEqualTo(-32601);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void sendWithoutAMessageIsInvalidParams(ProtocolVersion version) {
        JsonNode response = client(version).call(A2aMethod.SEND_MESSAGE, WireClient.JSON.createObjectNode());

        assertThat(code(response)).isEqualTo(-32602);
        assertThat(response.path("error").path("message").asText()).contains("message");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void malformedDirectiveRejectsTheTaskNamingIt(ProtocolVersion version) {
        // not a JSON-RPC error, which a client may retry for a long time: a task that ends, rejected
        WireClient client = client(version);
        JsonNode task = client.sendText("/slow later");

        assertThat(WireClient.state(task)).isEqualTo(dev.switchboard.protocol.model.TaskState.REJECTED);
        assertThat(WireClient.partsText(task.path("status").path("message").path("parts")))
                .startsWith("malformed testkit directive").contains("/slow");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void unknownTaskIsTaskNotFound(ProtocolVersion version) {
        WireClient client = client(version);
        ObjectNode query = WireClient.JSON.createObjectNode().put("id", "no-such-task");

        assertThat(code(client.call(A2aMethod.GET_TASK, query))).isEqualTo(-32001);
        assertThat(code(client.call(A2aMethod.CANCEL_TASK, query))).isEqualTo(-32001);
        ObjectNode message = client.message("answer");
        message.put("taskId", "no-such-task");
        assertThat(code(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message)))).isEqualTo(-32001);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void cancellingAFinishedTaskIsNotCancelable(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendText("done");

        JsonNode response = client.call(A2aMethod.CANCEL_TASK, WireClient.JSON.createObjectNode().put("id", task.path("id").asText()));

        assertThat(code(response)).isEqualTo(-32002);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void messageToAFinishedTaskIsUnsupported(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendText("done");
        ObjectNode message = client.message("more");
        message.put("taskId", task.path("id").asText());

        assertThat(code(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message)))).isEqualTo(-32004);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void streamingIsUnsupportedWhenTheCardSaysSo(ProtocolVersion version) {
        TestAgent flat = start(TestAgentOptions.echo("flat").withStreaming(false));
        WireClient client = new WireClient(flat.url(), version);

        SseCapture stream = client.stream(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("hi")));
        stream.awaitEnd();

        assertThat(stream.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(stream.events()).singleElement().satisfies(e -> assertThat(code(e)).isEqualTo(-32004));
        assertThat(WireClient.state(client.sendText("still answers"))).hasToString("COMPLETED");
    }

    @Test
    void unsupportedVersionHeaderIsVersionNotSupported() {
        JsonNode response = raw("{\"jsonrpc\":\"2.0\",\"id\":\"v\",\"method\":\"SendMessage\",\"params\":{}}", "9.9");

        assertThat(code(response)).isEqualTo(-32009);
        assertThat(response.get("id").asText()).isEqualTo("v");
    }

    @Test
    void versionTheAgentDoesNotServeIsVersionNotSupported() {
        TestAgent old = start(TestAgentOptions.echo("old").withVersions(ProtocolVersion.V0_3));
        WireClient client = new WireClient(old.url(), ProtocolVersion.V1_0);

        JsonNode response = client.call(A2aMethod.SEND_MESSAGE, WireClient.params(client.message("hi")));

        assertThat(code(response)).isEqualTo(-32009);
    }

    @Test
    void versionAlsoTravelsAsAQueryParameter() {
        WireClient client = new WireClient(agent.url() + "?A2A-Version=1.0", ProtocolVersion.V0_3);
        String body = client.request("SendMessage", WireClient.params(new WireClient(agent.url(), ProtocolVersion.V1_0).message("q")));

        JsonNode response = WireClient.parse(client.post(body).body());

        assertThat(response.path("result").path("task").path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }

    @Test
    void idIsEchoedWithItsType() {
        JsonNode text = raw("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"GetTask\",\"params\":{\"id\":\"x\"}}", "1.0");
        JsonNode number = raw("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}", null);

        assertThat(text.get("id").isTextual()).isTrue();
        assertThat(text.get("id").asText()).isEqualTo("abc");
        assertThat(number.get("id").isInt()).isTrue();
        assertThat(number.get("id").asInt()).isEqualTo(7);
    }

    @Test
    void oneErrorsCarryErrorInfoData() {
        JsonNode response = client(ProtocolVersion.V1_0).call(A2aMethod.GET_TASK, WireClient.JSON.createObjectNode().put("id", "gone"));

        assertThat(response.path("error").path("data").isArray()).isTrue();
        assertThat(response.path("error").path("data").get(0).path("reason").asText()).isEqualTo("TASK_NOT_FOUND");
    }
}
