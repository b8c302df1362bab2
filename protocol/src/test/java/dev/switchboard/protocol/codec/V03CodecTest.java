package dev.switchboard.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.SendMessageConfiguration;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class V03CodecTest {

    private final WireCodec codec = WireCodec.of(ProtocolVersion.V0_3);

    @Test
    void messageRoundTripsWithKindOnMessageAndEveryPart() {
        Message m = Samples.message();
        JsonNode json = codec.writeMessage(m);
        assertThat(json.get("kind").asText()).isEqualTo("message");
        assertThat(json.get("role").asText()).isEqualTo("user");
        assertThat(json.get("parts").toString()).isEqualTo("["
                + "{\"kind\":\"text\",\"text\":\"hello\",\"metadata\":{\"lang\":\"en\"}},"
                + "{\"kind\":\"file\",\"file\":{\"bytes\":\"Ynl0ZXM=\",\"name\":\"a.txt\",\"mimeType\":\"text/plain\"}},"
                + "{\"kind\":\"file\",\"file\":{\"uri\":\"https://example.com/a.pdf\",\"name\":\"a.pdf\",\"mimeType\":\"application/pdf\"},\"metadata\":{\"k\":\"v\"}},"
                + "{\"kind\":\"data\",\"data\":{\"k\":1,\"list\":[1,2]}}]");
        assertThat(codec.readMessage(json)).isEqualTo(m);
    }

    @Test
    void minimalMessageIsWrittenExactly() {
        assertThat(codec.writeMessage(Message.userText("m-1", "hi")).toString())
                .isEqualTo("{\"kind\":\"message\",\"messageId\":\"m-1\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}]}");
    }

    @Test
    void nonObjectDataIsWrappedAsValue() {
        Message m = new Message("m", Role.AGENT, List.of(new Part.Data(Json.parse("[1,2]"), null, null, null),
                new Part.Data(Json.parse("7"), null, null, null)), null, null, null, null, null);
        JsonNode parts = codec.writeMessage(m).get("parts");
        assertThat(parts.get(0).toString()).isEqualTo("{\"kind\":\"data\",\"data\":{\"value\":[1,2]}}");
        assertThat(parts.get(1).toString()).isEqualTo("{\"kind\":\"data\",\"data\":{\"value\":7}}");
    }

    @Test
    void textAndDataPartsLoseMediaTypeAndFilenameWhich03CannotCarry() {
        Message m = new Message("m", Role.AGENT, List.of(new Part.Text("t", "text/markdown", "t.md", null)),
                null, null, null, null, null);
        assertThat(codec.writeMessage(m).get("parts").get(0).toString()).isEqualTo("{\"kind\":\"text\",\"text\":\"t\"}");
    }

    @Test
    void unspecifiedRoleIsLeftOut() {
        Message m = new Message("m", Role.UNSPECIFIED, List.of(Part.text("x")), null, null, null, null, null);
        assertThat(codec.writeMessage(m).has("role")).isFalse();
        assertThat(codec.readMessage(codec.writeMessage(m))).isEqualTo(m);
    }

    @Test
    void taskRoundTripsWithKebabStates() {
        Task t = Samples.task();
        JsonNode json = codec.writeTask(t);
        assertThat(json.get("kind").asText()).isEqualTo("task");
        assertThat(json.at("/status/state").asText()).isEqualTo("input-required");
        assertThat(json.at("/status/message/kind").asText()).isEqualTo("message");
        assertThat(codec.readTask(json)).isEqualTo(t);
    }

    @Test
    void everyTaskStateHasIts03Spelling() {
        List<String> spellings = List.of("unknown", "submitted", "working", "completed", "failed", "canceled",
                "input-required", "rejected", "auth-required");
        for (TaskState s : TaskState.values()) {
            JsonNode json = codec.writeTask(new Task("t", "c", TaskStatus.of(s), null, null, null));
            assertThat(json.at("/status/state").asText()).isEqualTo(spellings.get(s.ordinal()));
            assertThat(codec.readTask(json).state()).isEqualTo(s);
        }
    }

    @Test
    void sendResultIsTheBareObjectWithKind() {
        Task t = new Task("t-1", "c-1", TaskStatus.of(TaskState.SUBMITTED), null, null, null);
        assertThat(codec.writeSendResult(t).toString())
                .isEqualTo("{\"kind\":\"task\",\"id\":\"t-1\",\"contextId\":\"c-1\",\"status\":{\"state\":\"submitted\"}}");
        assertThat(codec.readSendResult(codec.writeSendResult(t))).isEqualTo(t);
        Message m = Message.agentText("m", "hi");
        assertThat(codec.readSendResult(codec.writeSendResult(m))).isEqualTo(m);
    }

    @Test
    void everyStreamEventRoundTripsWithItsKind() {
        List<StreamEvent> events = List.of(Samples.task(), Samples.message(), Samples.statusUpdate(true), Samples.artifactUpdate());
        List<String> kinds = List.of("task", "message", "status-update", "artifact-update");
        for (int i = 0; i < events.size(); i++) {
            JsonNode json = codec.writeStreamEvent(events.get(i));
            assertThat(json.get("kind").asText()).isEqualTo(kinds.get(i));
            assertThat(codec.readStreamEvent(json)).isEqualTo(events.get(i));
        }
    }

    @Test
    void statusUpdateAlwaysCarriesFinal() {
        assertThat(codec.writeStreamEvent(Samples.statusUpdate(false)).get("final").asBoolean()).isFalse();
        assertThat(codec.writeStreamEvent(Samples.statusUpdate(true)).get("final").asBoolean()).isTrue();
    }

    @Test
    void streamEventWithoutKindOrWithAnUnknownKindIsRejected() {
        assertThatThrownBy(() -> codec.readStreamEvent(Json.parse("{\"id\":\"t\"}"))).hasMessage("result.kind: missing");
        assertThatThrownBy(() -> codec.readStreamEvent(Json.parse("{\"kind\":\"bogus\"}")))
                .hasMessageContaining("result.kind: expected task, message, status-update or artifact-update, got 'bogus'");
    }

    @Test
    void sendParamsRoundTripWithBlockingAndNestedPushAuth() {
        SendMessageParams p = Samples.sendParams(null);
        JsonNode json = codec.writeSendParams(p);
        assertThat(json.at("/configuration/blocking").asBoolean()).isFalse();
        assertThat(json.at("/configuration/returnImmediately").isMissingNode()).isTrue();
        assertThat(json.at("/configuration/pushNotificationConfig").toString()).isEqualTo(
                "{\"url\":\"https://client/hook\",\"token\":\"tok\",\"authentication\":{\"schemes\":[\"Bearer\"],\"credentials\":\"abc\"}}");
        SendMessageParams back = codec.readSendParams(json);
        assertThat(back.configuration().returnImmediately()).isTrue();
        assertThat(back.message()).isEqualTo(p.message());
        assertThat(codec.writeSendParams(back)).isEqualTo(json);
    }

    @Test
    void tenantIsNotWrittenIn03() {
        assertThat(codec.writeSendParams(Samples.sendParams("acme")).has("tenant")).isFalse();
        assertThat(codec.writeTaskQuery(Samples.taskQuery("acme")).toString())
                .isEqualTo("{\"id\":\"t-1\",\"historyLength\":3,\"metadata\":{\"why\":\"test\"}}");
    }

    @Test
    void blockingFalseReadsAsReturnImmediately() {
        SendMessageParams p = codec.readSendParams(Json.parse(
                "{\"message\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":[]},\"configuration\":{\"blocking\":false}}"));
        assertThat(p.configuration()).isEqualTo(new SendMessageConfiguration(null, null, true, null, null));
    }

    @Test
    void listTasksIsUnsupported() {
        assertThatThrownBy(() -> codec.writeListTasksParams(Samples.listTasksParams()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> codec.readListTasksResult(Json.object())).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void errorDataIsWrittenAsGivenAndNoErrorInfoIsAdded() {
        assertThat(codec.writeError(JsonRpcError.of(-32001, "Task not found")).toString())
                .isEqualTo("{\"code\":-32001,\"message\":\"Task not found\"}");
        JsonRpcError withData = new JsonRpcError(-32001, "gone", Json.parse("\"t-1\""));
        assertThat(codec.readError(codec.writeError(withData))).isEqualTo(withData);
    }
}
