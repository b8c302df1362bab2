package dev.switchboard.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.SendMessageConfiguration;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class V10CodecTest {

    private final WireCodec codec = WireCodec.of(ProtocolVersion.V1_0);

    @Test
    void messageRoundTripsAndIsWrittenWithoutKindAndWithProtoEnumNames() {
        Message m = Samples.message();
        JsonNode json = codec.writeMessage(m);
        assertThat(json.toString())
                .doesNotContain("\"kind\"")
                .contains("\"role\":\"ROLE_USER\"")
                .contains("{\"text\":\"hello\",\"metadata\":{\"lang\":\"en\"}}")
                .contains("{\"raw\":\"Ynl0ZXM=\",\"filename\":\"a.txt\",\"mediaType\":\"text/plain\"}")
                .contains("{\"url\":\"https://example.com/a.pdf\",\"filename\":\"a.pdf\",\"mediaType\":\"application/pdf\"")
                .contains("{\"data\":{\"k\":1,\"list\":[1,2]}}");
        assertThat(codec.readMessage(json)).isEqualTo(m);
    }

    @Test
    void minimalMessageIsWrittenExactly() {
        assertThat(codec.writeMessage(Message.userText("m-1", "hi")).toString())
                .isEqualTo("{\"messageId\":\"m-1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}");
    }

    @Test
    void partsKeepMediaTypeAndFilenameOnEveryKindAndDataMayBeAnyValue() {
        List<Part> parts = List.of(
                new Part.Text("t", "text/markdown", "t.md", null),
                new Part.Data(Json.parse("[1,2,3]"), "application/json", "d.json", null),
                new Part.Data(Json.parse("\"just a string\""), null, null, null));
        Message m = new Message("m", dev.switchboard.protocol.model.Role.AGENT, parts, null, null, null, null, null);
        JsonNode json = codec.writeMessage(m);
        assertThat(json.get("parts").get(1).toString())
                .isEqualTo("{\"data\":[1,2,3],\"filename\":\"d.json\",\"mediaType\":\"application/json\"}");
        assertThat(codec.readMessage(json)).isEqualTo(m);
    }

    @Test
    void taskRoundTripsWithTimestampInMillisecondsUtc() {
        Task t = Samples.task();
        JsonNode json = codec.writeTask(t);
        assertThat(json.at("/status/state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        assertThat(json.at("/status/timestamp").asText()).isEqualTo("2026-03-15T10:15:00.123Z");
        assertThat(codec.readTask(json)).isEqualTo(t);
    }

    @Test
    void taskOmitsAbsentArtifactsAndHistoryButWritesEmptyOnes() {
        Task absent = new Task("t", "c", TaskStatus.of(TaskState.WORKING), null, null, null);
        assertThat(codec.writeTask(absent).toString())
                .isEqualTo("{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}");
        Task empty = new Task("t", "c", TaskStatus.of(TaskState.WORKING), List.of(), List.of(), null);
        assertThat(codec.writeTask(empty).toString()).contains("\"artifacts\":[]").contains("\"history\":[]");
        assertThat(codec.readTask(codec.writeTask(absent)).artifacts()).isNull();
        assertThat(codec.readTask(codec.writeTask(empty)).artifacts()).isEmpty();
    }

    @Test
    void everyTaskStateHasItsProtoName() {
        for (TaskState s : TaskState.values()) {
            Task t = new Task("t", "c", TaskStatus.of(s), null, null, null);
            JsonNode json = codec.writeTask(t);
            assertThat(json.at("/status/state").asText()).isEqualTo("TASK_STATE_" + s.name());
            assertThat(codec.readTask(json).state()).isEqualTo(s);
        }
    }

    @Test
    void sendResultIsWrappedInTaskOrMessage() {
        Task t = new Task("t-1", "c-1", TaskStatus.of(TaskState.SUBMITTED), null, null, null);
        assertThat(codec.writeSendResult(t).toString())
                .isEqualTo("{\"task\":{\"id\":\"t-1\",\"contextId\":\"c-1\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}");
        assertThat(codec.readSendResult(codec.writeSendResult(t))).isEqualTo(t);
        Message m = Message.agentText("m-9", "hi").withIds("c-2", null);
        assertThat(codec.writeSendResult(m).toString())
                .isEqualTo("{\"message\":{\"messageId\":\"m-9\",\"role\":\"ROLE_AGENT\",\"parts\":[{\"text\":\"hi\"}],\"contextId\":\"c-2\"}}");
        assertThat(codec.readSendResult(codec.writeSendResult(m))).isEqualTo(m);
    }

    @Test
    void bareSendResultIsRejectedNamingTheWrapperMembers() {
        JsonNode bare = WireCodec.of(ProtocolVersion.V0_3).writeSendResult(Message.agentText("m", "x"));
        assertThatThrownBy(() -> codec.readSendResult(bare))
                .isInstanceOf(A2aFormatException.class)
                .hasMessageContaining("result: has none of task, message");
    }

    @Test
    void everyStreamEventRoundTripsInItsWrapper() {
        List<StreamEvent> events = List.of(Samples.task(), Samples.message(), Samples.statusUpdate(false), Samples.artifactUpdate());
        List<String> members = List.of("task", "message", "statusUpdate", "artifactUpdate");
        for (int i = 0; i < events.size(); i++) {
            JsonNode json = codec.writeStreamEvent(events.get(i));
            assertThat(json.fieldNames()).toIterable().containsExactly(members.get(i));
            assertThat(codec.readStreamEvent(json)).isEqualTo(events.get(i));
        }
    }

    @Test
    void statusUpdateHasNoFinalAndReadsAsNotFinal() {
        JsonNode json = codec.writeStreamEvent(Samples.statusUpdate(true));
        assertThat(json.get("statusUpdate").has("final")).isFalse();
        assertThat(codec.readStreamEvent(json)).isEqualTo(Samples.statusUpdate(false));
    }

    @Test
    void artifactUpdateOmitsFalseAppendAndLastChunk() {
        TaskArtifactUpdateEvent e = new TaskArtifactUpdateEvent("t", "c", Artifact.text("a", "x"), false, false, null);
        assertThat(codec.writeStreamEvent(e).toString()).isEqualTo(
                "{\"artifactUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"x\"}]}}}");
        assertThat(codec.writeStreamEvent(Samples.artifactUpdate()).toString()).contains("\"append\":true,\"lastChunk\":true");
    }

    @Test
    void streamEventWithTwoMembersIsRejected() {
        JsonNode json = Json.parse("{\"task\":{\"id\":\"t\"},\"message\":{\"messageId\":\"m\"}}");
        assertThatThrownBy(() -> codec.readStreamEvent(json)).hasMessage("result: has both task and message");
    }

    @Test
    void sendParamsRoundTripWithReturnImmediatelyTenantAndFlatPushConfig() {
        SendMessageParams p = Samples.sendParams("acme");
        JsonNode json = codec.writeSendParams(p);
        assertThat(json.get("tenant").asText()).isEqualTo("acme");
        assertThat(json.at("/configuration/returnImmediately").asBoolean()).isTrue();
        assertThat(json.at("/configuration/blocking").isMissingNode()).isTrue();
        assertThat(json.at("/configuration/taskPushNotificationConfig/authentication").toString())
                .isEqualTo("{\"scheme\":\"Bearer\",\"credentials\":\"abc\"}");
        assertThat(json.at("/configuration/timeout").asLong()).isEqualTo(30);
        assertThat(codec.readSendParams(json)).isEqualTo(p);
    }

    @Test
    void absentReturnImmediatelyStaysAbsent() {
        SendMessageParams p = new SendMessageParams(Message.userText("m", "x"),
                new SendMessageConfiguration(null, null, null, null, null), null, null);
        JsonNode json = codec.writeSendParams(p);
        assertThat(json.get("configuration").toString()).isEqualTo("{}");
        assertThat(codec.readSendParams(json).configuration().returnImmediately()).isNull();
    }

    @Test
    void taskQueryRoundTripsWithTenant() {
        JsonNode json = codec.writeTaskQuery(Samples.taskQuery("acme"));
        assertThat(json.toString()).isEqualTo("{\"tenant\":\"acme\",\"id\":\"t-1\",\"historyLength\":3,\"metadata\":{\"why\":\"test\"}}");
        assertThat(codec.readTaskQuery(json)).isEqualTo(Samples.taskQuery("acme"));
    }

    @Test
    void listTasksParamsRoundTrip() {
        JsonNode json = codec.writeListTasksParams(Samples.listTasksParams());
        assertThat(json.get("status").asText()).isEqualTo("TASK_STATE_WORKING");
        assertThat(json.get("statusTimestampAfter").asText()).isEqualTo("2026-03-15T10:15:00.123Z");
        assertThat(codec.readListTasksParams(json)).isEqualTo(Samples.listTasksParams());
        assertThat(codec.readListTasksParams(null)).isEqualTo(
                new dev.switchboard.protocol.model.ListTasksParams(null, null, null, null, null, null, null, null));
    }

    @Test
    void listTasksResultAlwaysWritesAllFourMembers() {
        assertThat(codec.writeListTasksResult(new ListTasksResult(List.of(), null, 50, 0)).toString())
                .isEqualTo("{\"tasks\":[],\"nextPageToken\":\"\",\"pageSize\":50,\"totalSize\":0}");
        JsonNode json = codec.writeListTasksResult(Samples.listTasksResult());
        assertThat(codec.readListTasksResult(json)).isEqualTo(Samples.listTasksResult());
    }

    @Test
    void a2aErrorGetsErrorInfoWhenNoDataIsGiven() {
        JsonNode json = codec.writeError(JsonRpcError.of(JsonRpcError.TASK_NOT_FOUND, "Task not found: nope"));
        assertThat(json.toString()).isEqualTo("{\"code\":-32001,\"message\":\"Task not found: nope\",\"data\":"
                + "[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}");
        assertThat(codec.readError(json).data()).isEqualTo(json.get("data"));
    }

    @Test
    void plainJsonRpcErrorHasNoData() {
        assertThat(codec.writeError(JsonRpcError.of(JsonRpcError.METHOD_NOT_FOUND, "Method not found")).toString())
                .isEqualTo("{\"code\":-32601,\"message\":\"Method not found\"}");
    }

    @Test
    void nonArrayDataIsKeptAsValueAnyAfterTheErrorInfo() {
        JsonNode json = codec.writeError(new JsonRpcError(-32001, "gone", Json.parse("{\"taskId\":\"t\"}")));
        assertThat(json.get("data").toString()).isEqualTo("[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\","
                + "\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"},"
                + "{\"@type\":\"type.googleapis.com/google.protobuf.Value\",\"value\":{\"taskId\":\"t\"}}]");
    }

    @Test
    void arrayDataIsWrittenAsGiven() {
        JsonNode data = Json.parse("[{\"@type\":\"type.googleapis.com/google.rpc.BadRequest\"}]");
        assertThat(codec.writeError(new JsonRpcError(-32602, "bad", data)).get("data")).isEqualTo(data);
    }

    @Test
    void writtenJsonIsOneCompactLine() {
        String s = Json.write(codec.writeTask(Samples.task()));
        assertThat(s).doesNotContain("\n").doesNotContain(": ");
    }
}
