package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.TaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The task store behind the agent: contexts, history, cancel, ListTasks and SubscribeToTask. */
class TaskLifecycleTest extends AgentTestSupport {

    private static ObjectNode id(JsonNode task) {
        return WireClient.JSON.createObjectNode().put("id", task.path("id").asText());
    }

    private JsonNode sendInContext(WireClient client, String text, String contextId) {
        ObjectNode message = client.message(text);
        if (contextId != null) {
            message.put("contextId", contextId);
        }
        return client.sendResult(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message)));
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void contextIdIsGeneratedWhenAbsentAndKeptWhenGiven(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode first = sendInContext(client, "one", null);
        JsonNode second = sendInContext(client, "two", first.path("contextId").asText());

        assertThat(first.path("contextId").asText()).isNotEmpty();
        assertThat(second.path("contextId").asText()).isEqualTo(first.path("contextId").asText());
        assertThat(second.path("id").asText()).isNotEqualTo(first.path("id").asText());
        assertThat(second.path("history").get(0).path("contextId").asText()).isEqualTo(first.path("contextId").asText());
        assertThat(second.path("history").get(0).path("taskId").asText()).isEqualTo(second.path("id").asText());
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void historyHoldsTheUserMessageWithItsMessageId(ProtocolVersion version) {
        WireClient client = client(version);
        ObjectNode message = client.message("remember me");
        JsonNode task = client.sendResult(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message)));

        assertThat(task.path("history")).hasSize(1);
        assertThat(task.path("history").get(0).path("messageId").asText()).isEqualTo(message.path("messageId").asText());
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void historyLengthLimitsTheHistoryAndZeroOmitsIt(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode asked = client.sendText("/ask Question?");
        ObjectNode answer = client.message("Answer");
        answer.put("taskId", asked.path("id").asText());
        client.call(A2aMethod.SEND_MESSAGE, WireClient.params(answer));

        JsonNode all = client.call(A2aMethod.GET_TASK, id(asked)).get("result");
        JsonNode newest = client.call(A2aMethod.GET_TASK, id(asked).put("historyLength", 1)).get("result");
        JsonNode none = client.call(A2aMethod.GET_TASK, id(asked).put("historyLength", 0)).get("result");

        assertThat(all.path("history")).hasSize(3);
        assertThat(newest.path("history")).hasSize(1);
        assertThat(WireClient.partsText(newest.path("history").get(0).path("parts"))).isEqualTo("Answer");
        assertThat(none.has("history")).isFalse();
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void cancelEndsARunningTaskAndTellsItsStream(ProtocolVersion version) {
        WireClient client = client(version);
        SseCapture stream = client.stream(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("/slow 5000\nnever")));
        stream.awaitEvents(2);
        JsonNode task = client.unwrap(stream.events().get(0).get("result"));

        JsonNode canceled = client.call(A2aMethod.CANCEL_TASK, id(task)).get("result");
        stream.awaitEnd();

        assertThat(WireClient.state(canceled)).isEqualTo(TaskState.CANCELED);
        JsonNode lastEvent = client.unwrap(stream.events().get(stream.events().size() - 1).get("result"));
        assertThat(WireClient.state(lastEvent)).isEqualTo(TaskState.CANCELED);
        assertThat(WireClient.artifactText(client.call(A2aMethod.GET_TASK, id(task)).get("result"))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void cancelEndsAQuestion(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode asked = client.sendText("/ask Still there?");

        assertThat(WireClient.state(client.call(A2aMethod.CANCEL_TASK, id(asked)).get("result"))).isEqualTo(TaskState.CANCELED);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void subscribeGivesTheCurrentTaskFirstThenLiveEvents(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendResult(client.call(A2aMethod.SEND_MESSAGE,
                client.returnImmediately(WireClient.params(client.message("/stream 3 150\nabcdef")))));

        SseCapture subscription = client.stream(A2aMethod.SUBSCRIBE_TO_TASK, id(task));
        subscription.awaitEnd();

        List<JsonNode> results = subscription.events().stream().map(e -> e.get("result")).toList();
        assertThat(client.kind(results.get(0))).isEqualTo("task");
        assertThat(client.unwrap(results.get(0)).path("id").asText()).isEqualTo(task.path("id").asText());
        assertThat(results.stream().map(client::kind)).contains("artifact");
        assertThat(WireClient.state(client.unwrap(results.get(results.size() - 1)))).isEqualTo(TaskState.COMPLETED);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void twoSubscribersSeeTheSameEvents(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendResult(client.call(A2aMethod.SEND_MESSAGE,
                client.returnImmediately(WireClient.params(client.message("/stream 2 200\nxy")))));

        SseCapture one = client.stream(A2aMethod.SUBSCRIBE_TO_TASK, id(task));
        SseCapture two = client.stream(A2aMethod.SUBSCRIBE_TO_TASK, id(task));
        one.awaitEnd();
        two.awaitEnd();

        // each starts with the task as it is when it subscribes; what happens after the later one subscribed
        // (a chunk may land between the two subscriptions on a busy machine) both see, in the same order
        List<JsonNode> tailOne = one.events().stream().skip(1).map(e -> e.get("result")).toList();
        List<JsonNode> tailTwo = two.events().stream().skip(1).map(e -> e.get("result")).toList();
        assertThat(tailTwo).isNotEmpty();
        assertThat(tailOne).endsWith(tailTwo.toArray(JsonNode[]::new));
        assertThat(WireClient.state(client.unwrap(tailTwo.get(tailTwo.size() - 1)))).isEqualTo(TaskState.COMPLETED);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void subscribeToAFinishedTaskIsUnsupportedAsPlainJson(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendText("over");

        SseCapture subscription = client.stream(A2aMethod.SUBSCRIBE_TO_TASK, id(task));
        subscription.awaitEnd();

        assertThat(subscription.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(subscription.events()).singleElement()
                .satisfies(e -> assertThat(e.path("error").path("code").asInt()).isEqualTo(-32004));
    }

    @Test
    void listTasksPagesThroughAContextNewestFirst() {
        WireClient client = client(ProtocolVersion.V1_0);
        String context = "ctx-list-" + UUID.randomUUID();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(0, sendInContext(client, "turn " + i, context).path("id").asText());
        }
        sendInContext(client, "elsewhere", null);

        List<String> listed = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        String token = "";
        do {
            ObjectNode params = WireClient.JSON.createObjectNode().put("contextId", context).put("pageSize", 2);
            if (!token.isEmpty()) {
                params.put("pageToken", token);
            }
            JsonNode result = client.call(A2aMethod.LIST_TASKS, params).get("result");
            assertThat(result.path("totalSize").asInt()).isEqualTo(5);
            assertThat(result.path("pageSize").asInt()).isEqualTo(2);
            assertThat(result.has("nextPageToken")).isTrue();
            result.path("tasks").forEach(t -> listed.add(t.path("id").asText()));
            pageSizes.add(result.path("tasks").size());
            token = result.path("nextPageToken").asText();
        } while (!token.isEmpty());

        assertThat(pageSizes).containsExactly(2, 2, 1);
        assertThat(listed).containsExactlyElementsOf(sent);
    }

    @Test
    void listTasksOmitsArtifactsUnlessAskedAndHonoursHistoryLength() {
        WireClient client = client(ProtocolVersion.V1_0);
        String context = "ctx-art-" + UUID.randomUUID();
        sendInContext(client, "with artifact", context);

        JsonNode plain = client.call(A2aMethod.LIST_TASKS, WireClient.JSON.createObjectNode().put("contextId", context))
                .get("result").path("tasks").get(0);
        JsonNode full = client.call(A2aMethod.LIST_TASKS, WireClient.JSON.createObjectNode().put("contextId", context)
                .put("includeArtifacts", true).put("historyLength", 0)).get("result").path("tasks").get(0);

        assertThat(plain.has("artifacts")).isFalse();
        assertThat(plain.path("history")).hasSize(1);
        assertThat(WireClient.artifactText(full)).isEqualTo("with artifact");
        assertThat(full.has("history")).isFalse();
    }

    @Test
    void listTasksRefusesABadPageSizeOrToken() {
        WireClient client = client(ProtocolVersion.V1_0);

        JsonNode tooBig = client.call(A2aMethod.LIST_TASKS, WireClient.JSON.createObjectNode().put("pageSize", 101));
        JsonNode badToken = client.call(A2aMethod.LIST_TASKS, WireClient.JSON.createObjectNode().put("pageToken", "bm9wZQ"));

        assertThat(tooBig.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(tooBig.path("error").path("message").asText()).contains("pageSize");
        assertThat(badToken.path("error").path("code").asInt()).isEqualTo(-32602);
    }
}
