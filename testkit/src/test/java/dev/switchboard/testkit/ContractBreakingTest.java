package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.TaskState;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The misbehaviours the agent contract's "Otherwise" cells are about: each directive and card option
 * that breaks a rule, seen on the wire.
 */
class ContractBreakingTest extends AgentTestSupport {

    // ================= Replies =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void noIdsStreamsEventsNamingNeitherTaskNorContext(ProtocolVersion version) {
        WireClient client = client(version);
        List<JsonNode> events = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/noids\nnameless")));

        assertThat(events).hasSizeGreaterThanOrEqualTo(3);
        for (JsonNode event : events) {
            JsonNode e = client.unwrap(event);
            assertThat(e.has("id")).as("%s", e).isFalse();
            assertThat(e.has("taskId")).as("%s", e).isFalse();
            assertThat(e.has("contextId")).as("%s", e).isFalse();
        }
        assertThat(WireClient.partsText(client.unwrap(events.get(2)).path("artifact").path("parts"))).isEqualTo("nameless");
    }

    @Test
    void noContextStreamsEventsNamingTheTaskOnly() {
        WireClient client = client(ProtocolVersion.V1_0);
        List<JsonNode> events = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/nocontext")));

        assertThat(client.unwrap(events.get(0)).path("id").asText()).isNotEmpty();
        assertThat(events).allSatisfy(e -> assertThat(client.unwrap(e).has("contextId")).isFalse());
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void endClosesTheStreamCleanlyWhileTheTaskGoesOn(ProtocolVersion version) {
        WireClient client = client(version);
        SseCapture stream = client.stream(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/end 1 /slow 300\nlater")));
        stream.awaitEnd();

        assertThat(stream.endedAbruptly()).isFalse();
        assertThat(stream.events()).hasSize(1);
        JsonNode task = client.unwrap(stream.events().get(0).get("result"));
        assertThat(WireClient.state(task)).isEqualTo(TaskState.SUBMITTED);
        awaitState(client, task.path("id").asText(), TaskState.COMPLETED);
    }

    @Test
    void muteFallsSilentWithTheConnectionOpenWhileTheTaskFinishes() {
        WireClient client = client(ProtocolVersion.V1_0);
        SseCapture stream = client.stream(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/mute 2 /slow 100\nquiet")));
        stream.awaitEvents(2);
        String taskId = client.unwrap(stream.events().get(0).get("result")).path("id").asText();

        awaitState(client, taskId, TaskState.COMPLETED);
        assertThat(stream.hasEnded()).as("the stream stays open, silent").isFalse();
        assertThat(stream.events()).hasSize(2);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void fullTaskEndsTheStreamWithTheSettledTask(ProtocolVersion version) {
        WireClient client = client(version);
        List<JsonNode> plain = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("as usual")));
        List<JsonNode> full = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/fulltask\ndone properly")));

        assertThat(client.kind(plain.get(plain.size() - 1))).as("by default the stream ends on the status update")
                .isEqualTo("status");
        JsonNode last = full.get(full.size() - 1);
        assertThat(client.kind(last)).isEqualTo("task");
        assertThat(WireClient.state(client.unwrap(last))).isEqualTo(TaskState.COMPLETED);
        assertThat(WireClient.artifactText(client.unwrap(last))).isEqualTo("done properly");
    }

    @Test
    void heartbeatSendsWorkingUpdatesBeforeTheAnswer() {
        WireClient client = client(ProtocolVersion.V1_0);
        List<JsonNode> events = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/heartbeat 3 20\nalive")));

        assertThat(events).extracting(client::kind).containsExactly("task", "status", "status", "status", "status",
                "artifact", "status");
        assertThat(events.subList(1, 5)).allSatisfy(e -> assertThat(WireClient.state(client.unwrap(e))).isEqualTo(TaskState.WORKING));
    }

    @Test
    void vanishCutsTheStreamAndForgetsTheTask() {
        WireClient client = client(ProtocolVersion.V1_0);
        SseCapture stream = client.stream(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("/vanish 1")));
        stream.awaitEnd();
        String taskId = client.unwrap(stream.events().get(0).get("result")).path("id").asText();

        assertThat(stream.events()).hasSize(1);
        ObjectNode get = WireClient.JSON.createObjectNode().put("id", taskId);
        Awaitility.await().untilAsserted(() ->
                assertThat(client.call(A2aMethod.GET_TASK, get).path("error").path("code").asInt()).isEqualTo(-32001));
        assertThat(client.call(A2aMethod.SUBSCRIBE_TO_TASK, get).path("error").path("code").asInt()).isEqualTo(-32001);
    }

    // ================= Errors =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void busyRefusesTheFirstSendsOfAMessageIdThenRuns(ProtocolVersion version) {
        WireClient client = client(version);
        ObjectNode message = client.message("/busy 2\nat last");

        JsonNode first = client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message));
        JsonNode second = client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message));
        JsonNode other = client.call(A2aMethod.SEND_MESSAGE, WireClient.params(client.message("/busy 2\nanother")));
        JsonNode third = client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message));

        assertThat(first.path("error").path("code").asInt()).isEqualTo(-32004);
        assertThat(second.path("error").path("code").asInt()).isEqualTo(-32004);
        assertThat(other.path("error").path("code").asInt()).as("counted per messageId").isEqualTo(-32004);
        assertThat(WireClient.artifactText(client.sendResult(third))).isEqualTo("at last");
        assertThat(agent.recorder().executedMessageIds()).containsOnlyOnce(message.path("messageId").asText());
    }

    @Test
    void firstAppliesAFaultToTheFirstSendsOfAMessageIdThenEchoes() {
        WireClient client = client(ProtocolVersion.V1_0);
        ObjectNode message = client.message("/first 1 /http 503\nsecond time lucky");

        HttpResponse<String> refused = client.post(client.request("SendMessage", WireClient.params(message)));
        JsonNode answered = client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message));

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(WireClient.artifactText(client.sendResult(answered))).isEqualTo("second time lucky");
    }

    @Test
    void orphanAnswers5xxWhileTheTaskRunsWhereListTasksFindsIt() {
        WireClient client = client(ProtocolVersion.V1_0);
        ObjectNode message = client.message("/orphan 503 /slow 100\nrunning anyway");
        message.put("contextId", "ctx-orphan-" + UUID.randomUUID());

        HttpResponse<String> response = client.post(client.request("SendStreamingMessage", WireClient.params(message)));

        assertThat(response.statusCode()).isEqualTo(503);
        ObjectNode list = WireClient.JSON.createObjectNode().put("contextId", message.path("contextId").asText());
        JsonNode tasks = client.call("ListTasks", list).path("result").path("tasks");
        assertThat(tasks).hasSize(1);
        assertThat(tasks.get(0).path("history").get(0).path("messageId").asText())
                .isEqualTo(message.path("messageId").asText());
        awaitState(client, tasks.get(0).path("id").asText(), TaskState.COMPLETED);
    }

    @Test
    void lingerLeavesASecondTaskOfTheContextWorkingUntilItIsCancelled() {
        WireClient client = client(ProtocolVersion.V1_0);
        ObjectNode message = client.message("/linger\nand one more");
        message.put("contextId", "ctx-linger-" + UUID.randomUUID());

        List<JsonNode> events = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(message));
        String turnTask = client.unwrap(events.get(0)).path("id").asText();
        awaitState(client, turnTask, TaskState.COMPLETED);

        ObjectNode list = WireClient.JSON.createObjectNode().put("contextId", message.path("contextId").asText());
        JsonNode tasks = client.call("ListTasks", list).path("result").path("tasks");
        assertThat(tasks).hasSize(2);
        JsonNode lingering = null;
        for (JsonNode t : tasks) {
            if (!t.path("id").asText().equals(turnTask)) {
                lingering = t;
            }
        }
        assertThat(lingering).isNotNull();
        assertThat(WireClient.state(lingering)).isEqualTo(TaskState.WORKING);
        ObjectNode cancel = WireClient.JSON.createObjectNode().put("id", lingering.path("id").asText());
        assertThat(client.call(A2aMethod.CANCEL_TASK, cancel).path("result").path("id").asText())
                .isEqualTo(lingering.path("id").asText());
        awaitState(client, lingering.path("id").asText(), TaskState.CANCELED);
    }

    @Test
    void retryAfterAddsTheHeaderToWhateverTheRestAnswers() {
        WireClient client = client(ProtocolVersion.V1_0);

        HttpResponse<String> unavailable = client.post(client.request("SendMessage",
                WireClient.params(client.message("/retryafter 7 /http 503"))));
        HttpResponse<String> busy = client.post(client.request("SendMessage",
                WireClient.params(client.message("/retryafter 3 /busy 1"))));

        assertThat(unavailable.statusCode()).isEqualTo(503);
        assertThat(unavailable.headers().firstValue("Retry-After")).hasValue("7");
        assertThat(WireClient.parse(busy.body()).path("error").path("code").asInt()).isEqualTo(-32004);
        assertThat(busy.headers().firstValue("Retry-After")).hasValue("3");
    }

    @Test
    void redirectPointsElsewhereAndRunsNothing() {
        WireClient client = client(ProtocolVersion.V1_0);
        int before = agent.recorder().executedMessageIds().size();

        HttpResponse<String> response = client.post(client.request("SendMessage",
                WireClient.params(client.message("/redirect 302 http://127.0.0.1:9/elsewhere"))));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).hasValue("http://127.0.0.1:9/elsewhere");
        assertThat(agent.recorder().executedMessageIds()).hasSize(before);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void chaosWithNothingToDrawRunsTheTask(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendText("/chaos 0 0 0 /echo\ncalm");

        assertThat(WireClient.artifactText(task)).isEqualTo("calm");
        assertThatThrownBy(() -> Behavior.parse("/chaos 60 30 20")).hasMessageContaining("at most 100");
    }

    @Test
    void chaosBusyEveryTimeRefusesEverySend() {
        WireClient client = client(ProtocolVersion.V1_0);
        for (int i = 0; i < 3; i++) {
            assertThat(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(client.message("/chaos 0 0 100")))
                    .path("error").path("code").asInt()).isEqualTo(-32004);
        }
    }

    // ================= Task states and questions =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void authPausesInAuthRequiredThenMovesOnByItself(ProtocolVersion version) {
        WireClient client = client(version);
        List<JsonNode> events = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/auth 200\nsigned in")));

        JsonNode last = client.unwrap(events.get(events.size() - 1));
        assertThat(WireClient.state(last)).isEqualTo(TaskState.AUTH_REQUIRED);
        String taskId = client.unwrap(events.get(0)).path("id").asText();
        JsonNode done = awaitState(client, taskId, TaskState.COMPLETED);
        assertThat(WireClient.artifactText(done)).isEqualTo("signed in");
    }

    @Test
    void authWithoutADelayStaysPaused() {
        WireClient client = client(ProtocolVersion.V1_0);
        JsonNode task = client.sendText("/auth");

        assertThat(WireClient.state(task)).isEqualTo(TaskState.AUTH_REQUIRED);
        assertThat(Behavior.parse("/auth").directive()).isEqualTo("/auth");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void askDataAsksWithADataPartOnly(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendText("/askdata");

        assertThat(WireClient.state(task)).isEqualTo(TaskState.INPUT_REQUIRED);
        JsonNode parts = task.path("status").path("message").path("parts");
        assertThat(parts).hasSize(1);
        assertThat(parts.get(0).has("text")).isFalse();
        assertThat(parts.get(0).path("data").path("approve").asText()).isNotEmpty();
    }

    // ================= agent options =================

    @Test
    void anUncancelableAgentRefusesCancelTaskAndTheTaskGoesOn() {
        TestAgent stubborn = start(TestAgentOptions.echo("stubborn").withCancelable(false));
        WireClient client = new WireClient(stubborn.url(), ProtocolVersion.V1_0);
        JsonNode task = client.sendResult(client.call(A2aMethod.SEND_MESSAGE,
                client.returnImmediately(WireClient.params(client.message("/slow 300\nunstoppable")))));
        ObjectNode id = WireClient.JSON.createObjectNode().put("id", task.path("id").asText());

        assertThat(client.call(A2aMethod.CANCEL_TASK, id).path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(WireClient.artifactText(awaitState(client, task.path("id").asText(), TaskState.COMPLETED)))
                .isEqualTo("unstoppable");
    }

    @Test
    void anAgentCanLeaveMethodsUnimplemented() {
        TestAgent partial = start(TestAgentOptions.echo("partial")
                .withUnimplemented(A2aMethod.SUBSCRIBE_TO_TASK, A2aMethod.LIST_TASKS));
        WireClient client = new WireClient(partial.url(), ProtocolVersion.V1_0);
        JsonNode task = client.sendText("done");
        ObjectNode id = WireClient.JSON.createObjectNode().put("id", task.path("id").asText());

        assertThat(client.call(A2aMethod.SUBSCRIBE_TO_TASK, id).path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(client.call("ListTasks", WireClient.JSON.createObjectNode()).path("error").path("code").asInt())
                .isEqualTo(-32601);
        assertThat(WireClient.state(client.call(A2aMethod.GET_TASK, id).get("result"))).isEqualTo(TaskState.COMPLETED);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aDedupingAgentAnswersARepeatedMessageIdWithTheTaskItStartedAndRunsItOnce(ProtocolVersion version) {
        TestAgent deduping = start(TestAgentOptions.echo("dedupe").withDedupe(true));
        WireClient client = new WireClient(deduping.url(), version);
        ObjectNode message = client.message("/slow 150\nonce only");

        SseCapture first = client.stream(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(message));
        first.awaitEvents(1);
        List<JsonNode> again = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(message));
        JsonNode blocking = client.sendResult(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message)));

        String taskId = client.unwrap(first.events().get(0).get("result")).path("id").asText();
        assertThat(client.unwrap(again.get(0)).path("id").asText()).isEqualTo(taskId);
        assertThat(WireClient.state(client.unwrap(again.get(again.size() - 1)))).isEqualTo(TaskState.COMPLETED);
        assertThat(blocking.path("id").asText()).isEqualTo(taskId);
        assertThat(WireClient.artifactText(blocking)).isEqualTo("once only");
        assertThat(deduping.recorder().messageIds()).hasSize(3);
        assertThat(deduping.recorder().executedMessageIds()).containsExactly(message.path("messageId").asText());
    }

    @Test
    void aCardCanListNoJsonRpcInterfaceOrRequireAnExtension() {
        TestAgent grpc = start(TestAgentOptions.echo("grpc").withInterfaceBinding("GRPC"));
        TestAgent picky = start(TestAgentOptions.echo("picky").withRequiredExtension("https://example.com/ext/secret"));

        JsonNode grpcCard = card(grpc, "1.0");
        JsonNode hybrid = card(grpc, null);
        JsonNode pickyCard = card(picky, "1.0");

        assertThat(grpcCard.path("supportedInterfaces")).isNotEmpty()
                .allSatisfy(i -> assertThat(i.path("protocolBinding").asText()).isEqualTo("GRPC"));
        assertThat(hybrid.path("preferredTransport").asText()).isEqualTo("GRPC");
        JsonNode extension = pickyCard.path("capabilities").path("extensions").get(0);
        assertThat(extension.path("uri").asText()).isEqualTo("https://example.com/ext/secret");
        assertThat(extension.path("required").asBoolean()).isTrue();
        // the endpoint still answers JSON-RPC: only the card lies
        assertThat(WireClient.artifactText(new WireClient(grpc.url(), ProtocolVersion.V1_0).sendText("still here")))
                .isEqualTo("still here");
    }

    @Test
    void newDirectivesReadBackFromTheirOwnDirective() {
        for (String d : List.of("/busy 3 /slow 5", "/first 2 /http 503", "/orphan 503 /echo", "/redirect 307 http://x/",
                "/noids /echo", "/nocontext /echo", "/linger /echo", "/end 1 /slow 5", "/mute 2 /echo", "/fulltask /echo", "/vanish 2",
                "/chaos 10 20 30 /stream 2 5", "/auth 100", "/askdata", "/heartbeat 3 50", "/retryafter 5 /http 503")) {
            assertThat(Behavior.parse(Behavior.parse(d).directive())).as(d).isEqualTo(Behavior.parse(d));
        }
        assertThatThrownBy(() -> Behavior.parse("/end 0")).hasMessageContaining(">= 1");
        assertThatThrownBy(() -> Behavior.parse("/orphan 503 /http 500")).hasMessageContaining("task behaviour");
        assertThatThrownBy(() -> Behavior.parse("/first 2")).hasMessageContaining("a number and a directive");
    }

    // ================= helpers =================

    private static JsonNode card(TestAgent agent, String version) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(agent.cardUrl())).GET();
        if (version != null) {
            request.header("A2A-Version", version);
        }
        return WireClient.parse(WireClient.send(request.build()).body());
    }

    private static JsonNode awaitState(WireClient client, String taskId, TaskState state) {
        ObjectNode get = WireClient.JSON.createObjectNode().put("id", taskId);
        return Awaitility.await().until(
                () -> client.call(A2aMethod.GET_TASK, get).get("result"),
                task -> WireClient.state(task) == state);
    }
}
