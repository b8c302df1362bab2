package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each task behaviour, in both versions, answered synchronously and as a stream. */
@Tag("server")
class TaskBehaviorTest extends AgentTestSupport {

    private static List<String> kinds(WireClient client, List<JsonNode> results) {
        return results.stream().map(client::kind).toList();
    }

    private static JsonNode last(WireClient client, List<JsonNode> results) {
        return client.unwrap(results.get(results.size() - 1));
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void echoCompletesWithTheTextAsItsArtifact(ProtocolVersion version) {
        JsonNode task = client(version).sendText("hello there");

        assertThat(WireClient.state(task)).isEqualTo(TaskState.COMPLETED);
        assertThat(WireClient.artifactText(task)).isEqualTo("hello there");
        assertThat(task.path("id").asText()).isNotEmpty();
        assertThat(task.path("contextId").asText()).isNotEmpty();
        assertThat(task.has("kind")).isEqualTo(version == ProtocolVersion.V0_3);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void echoStreamsTheTaskThenWorkingThenTheArtifactThenCompleted(ProtocolVersion version) {
        WireClient client = client(version);
        SseCapture capture = client.stream(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("streamed")));
        capture.awaitEnd();

        assertThat(capture.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        assertThat(capture.headers().firstValue("Cache-Control")).hasValue("no-cache");
        assertThat(capture.headers().firstValue("X-Accel-Buffering")).hasValue("no");
        List<JsonNode> results = capture.events().stream().map(e -> e.get("result")).toList();
        assertThat(kinds(client, results)).containsExactly("task", "status", "artifact", "status");
        assertThat(WireClient.state(client.unwrap(results.get(0)))).isEqualTo(TaskState.SUBMITTED);
        assertThat(WireClient.partsText(client.unwrap(results.get(2)).path("artifact").path("parts"))).isEqualTo("streamed");
        assertThat(WireClient.state(last(client, results))).isEqualTo(TaskState.COMPLETED);
        assertThat(capture.events()).allSatisfy(e -> assertThat(e.get("id").isInt()).isTrue());
        assertThat(capture.rawLines()).filteredOn(l -> l.startsWith("data:")).hasSize(4);
        if (version == ProtocolVersion.V0_3) {
            assertThat(last(client, results).path("final").asBoolean()).isTrue();
            assertThat(client.unwrap(results.get(1)).path("final").asBoolean()).isFalse();
        } else {
            assertThat(last(client, results).has("final")).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void streamSendsChunksThatAppendAfterTheFirstAndMarkTheLast(ProtocolVersion version) {
        WireClient client = client(version);
        List<JsonNode> results = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/stream 3 20\nabcdefghi")));

        List<JsonNode> chunks = results.stream().filter(r -> client.kind(r).equals("artifact")).map(client::unwrap).toList();
        assertThat(chunks).extracting(c -> WireClient.partsText(c.path("artifact").path("parts"))).containsExactly("abc", "def", "ghi");
        assertThat(chunks).extracting(c -> c.path("append").asBoolean(false)).containsExactly(false, true, true);
        assertThat(chunks).extracting(c -> c.path("lastChunk").asBoolean(false)).containsExactly(false, false, true);
        assertThat(chunks).extracting(c -> c.path("artifact").path("artifactId").asText()).containsOnly(
                chunks.get(0).path("artifact").path("artifactId").asText());
        assertThat(WireClient.state(last(client, results))).isEqualTo(TaskState.COMPLETED);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void streamAnsweredSynchronouslyHoldsTheWholeText(ProtocolVersion version) {
        JsonNode task = client(version).sendText("/stream 4 5\nthe whole text");

        assertThat(WireClient.state(task)).isEqualTo(TaskState.COMPLETED);
        assertThat(WireClient.artifactText(task)).isEqualTo("the whole text");
        assertThat(task.path("artifacts")).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void slowBlocksTheSendUntilItCompletes(ProtocolVersion version) {
        long started = System.nanoTime();
        JsonNode task = client(version).sendText("/slow 300\nlate");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(WireClient.state(task)).isEqualTo(TaskState.COMPLETED);
        assertThat(WireClient.artifactText(task)).isEqualTo("late");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void slowWithReturnImmediatelyAnswersAtOnceAndCompletesLater(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendResult(client.call(A2aMethod.SEND_MESSAGE,
                client.returnImmediately(WireClient.params(client.message("/slow 300\nlater")))));

        assertThat(WireClient.state(task)).isIn(TaskState.SUBMITTED, TaskState.WORKING);
        ObjectNode get = WireClient.JSON.createObjectNode().put("id", task.path("id").asText());
        Awaitility.await().untilAsserted(() ->
                assertThat(WireClient.state(client.call(A2aMethod.GET_TASK, get).get("result"))).isEqualTo(TaskState.COMPLETED));
        assertThat(WireClient.artifactText(client.call(A2aMethod.GET_TASK, get).get("result"))).isEqualTo("later");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void askPausesWithTheQuestionAndTheAnswerCompletesTheTask(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode asked = client.sendText("/ask What is your favourite colour?");

        assertThat(WireClient.state(asked)).isEqualTo(TaskState.INPUT_REQUIRED);
        assertThat(WireClient.partsText(asked.path("status").path("message").path("parts"))).isEqualTo("What is your favourite colour?");
        assertThat(asked.path("status").path("message").path("role").asText()).isIn("agent", "ROLE_AGENT");

        ObjectNode answer = client.message("blue");
        answer.put("taskId", asked.path("id").asText());
        answer.put("contextId", asked.path("contextId").asText());
        JsonNode done = client.sendResult(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(answer)));

        assertThat(done.path("id").asText()).isEqualTo(asked.path("id").asText());
        assertThat(WireClient.state(done)).isEqualTo(TaskState.COMPLETED);
        assertThat(WireClient.artifactText(done)).isEqualTo("blue");
        assertThat(done.path("history")).extracting(m -> WireClient.partsText(m.path("parts")))
                .containsExactly("/ask What is your favourite colour?", "What is your favourite colour?", "blue");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void askStreamEndsAtInputRequiredAndTheAnswerStreamEndsCompleted(ProtocolVersion version) {
        WireClient client = client(version);
        List<JsonNode> first = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("/ask Sure?")));

        JsonNode paused = last(client, first);
        assertThat(WireClient.state(paused)).isEqualTo(TaskState.INPUT_REQUIRED);
        if (version == ProtocolVersion.V0_3) {
            assertThat(paused.path("final").asBoolean()).isTrue();
        }

        ObjectNode answer = client.message("yes");
        answer.put("taskId", paused.path("taskId").asText());
        List<JsonNode> second = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(answer));

        assertThat(client.kind(second.get(0))).isEqualTo("task");
        assertThat(WireClient.state(last(client, second))).isEqualTo(TaskState.COMPLETED);
        assertThat(second.stream().filter(r -> client.kind(r).equals("artifact")))
                .extracting(r -> WireClient.partsText(client.unwrap(r).path("artifact").path("parts"))).containsExactly("yes");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void emptyCompletesWithoutAnyArtifact(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendText("/empty");
        List<JsonNode> streamed = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("/empty")));

        assertThat(WireClient.state(task)).isEqualTo(TaskState.COMPLETED);
        assertThat(task.path("artifacts").size()).isZero();
        assertThat(kinds(client, streamed)).containsExactly("task", "status", "status");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void failEndsFailedWithTheMessageAndTheCodeInMetadata(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode task = client.sendText("/fail context_length_exceeded The context window is full");
        List<JsonNode> streamed = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE,
                WireClient.params(client.message("/fail 429 Slow down")));

        assertThat(WireClient.state(task)).isEqualTo(TaskState.FAILED);
        JsonNode status = task.path("status").path("message");
        assertThat(WireClient.partsText(status.path("parts"))).isEqualTo("The context window is full");
        assertThat(status.path("metadata").path("code").asText()).isEqualTo("context_length_exceeded");
        JsonNode failed = last(client, streamed);
        assertThat(WireClient.state(failed)).isEqualTo(TaskState.FAILED);
        assertThat(failed.path("status").path("message").path("metadata").path("code").asInt()).isEqualTo(429);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void rejectEndsRejected(ProtocolVersion version) {
        WireClient client = client(version);

        assertThat(WireClient.state(client.sendText("/reject"))).isEqualTo(TaskState.REJECTED);
        List<JsonNode> streamed = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("/reject")));
        assertThat(kinds(client, streamed)).containsExactly("task", "status");
        assertThat(WireClient.state(last(client, streamed))).isEqualTo(TaskState.REJECTED);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void errorDirectiveAnswersWithThatJsonRpcErrorInsteadOfRunning(ProtocolVersion version) {
        WireClient client = client(version);
        JsonNode response = client.call(A2aMethod.SEND_MESSAGE, WireClient.params(client.message("/error -32004 agent is busy")));
        SseCapture stream = client.stream(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("/error -32603 boom")));
        stream.awaitEnd();

        assertThat(response.path("error").path("code").asInt()).isEqualTo(-32004);
        assertThat(response.path("error").path("message").asText()).isEqualTo("agent is busy");
        assertThat(stream.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(stream.events()).singleElement().satisfies(e -> assertThat(e.path("error").path("code").asInt()).isEqualTo(-32603));
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void metadataChoosesTheBehaviour(ProtocolVersion version) {
        WireClient client = client(version);
        ObjectNode message = client.message("What now?");
        message.putObject("metadata").put(Directive.METADATA_KEY, "/ask Are you sure?");

        JsonNode task = client.sendResult(client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message)));

        assertThat(WireClient.state(task)).isEqualTo(TaskState.INPUT_REQUIRED);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void defaultBehaviourAppliesToPlainMessages(ProtocolVersion version) {
        TestAgent streaming = start(TestAgentOptions.echo("chunky").withDefaultBehavior(new Behavior.Stream(2, 0)));
        WireClient client = new WireClient(streaming.url(), version);

        List<JsonNode> results = client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(client.message("abcd")));

        assertThat(results.stream().filter(r -> client.kind(r).equals("artifact"))).hasSize(2);
    }
}
