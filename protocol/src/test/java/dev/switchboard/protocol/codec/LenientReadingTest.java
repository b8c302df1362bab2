package dev.switchboard.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Readers take absent = null = default, every enum spelling, snake_case names and sloppy timestamps. */
class LenientReadingTest {

    private static Task task(ProtocolVersion v, String statusJson) {
        return WireCodec.of(v).readTask(Json.parse("{\"id\":\"t\",\"status\":" + statusJson + "}"));
    }

    @ParameterizedTest
    @CsvSource({
        "'\"TASK_STATE_CANCELED\"', CANCELED",
        "'\"TASK_STATE_CANCELLED\"', CANCELED",
        "'\"canceled\"', CANCELED",
        "'\"cancelled\"', CANCELED",
        "'\"input-required\"', INPUT_REQUIRED",
        "'\"input_required\"', INPUT_REQUIRED",
        "'\"INPUT-REQUIRED\"', INPUT_REQUIRED",
        "'\"task_state_auth_required\"', AUTH_REQUIRED",
        "'\"unknown\"', UNSPECIFIED",
        "'3', COMPLETED",
        "'8', AUTH_REQUIRED",
        "'0', UNSPECIFIED"
    })
    void taskStateAcceptsEverySpellingInEitherVersion(String state, TaskState expected) {
        for (ProtocolVersion v : ProtocolVersion.values()) {
            assertThat(task(v, "{\"state\":" + state + "}").state()).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @CsvSource({"'\"ROLE_AGENT\"', AGENT", "'\"agent\"', AGENT", "'\"User\"', USER", "'1', USER", "'2', AGENT"})
    void roleAcceptsEverySpelling(String role, Role expected) {
        Message m = WireCodec.of(ProtocolVersion.V1_0).readMessage(
                Json.parse("{\"messageId\":\"m\",\"role\":" + role + ",\"parts\":[]}"));
        assertThat(m.role()).isEqualTo(expected);
    }

    @Test
    void anUnknownTaskStateReadsAsUnspecifiedSoTheCallerDecides() {
        // the agent contract treats any other terminal state as failed: that needs the task, not an error
        assertThat(task(ProtocolVersion.V1_0, "{\"state\":\"TASK_STATE_SLEEPING\"}").state()).isEqualTo(TaskState.UNSPECIFIED);
        assertThat(task(ProtocolVersion.V1_0, "{\"state\":42}").state()).isEqualTo(TaskState.UNSPECIFIED);
        assertThat(task(ProtocolVersion.V0_3, "{\"state\":\"sleeping\"}").state()).isEqualTo(TaskState.UNSPECIFIED);
    }

    @Test
    void absentNullAndDefaultReadAlike() {
        Task t = task(ProtocolVersion.V1_0, "null");
        assertThat(t.state()).isEqualTo(TaskState.UNSPECIFIED);
        assertThat(t.contextId()).isNull();
        assertThat(t.artifacts()).isNull();
        Message m = WireCodec.of(ProtocolVersion.V1_0).readMessage(Json.parse(
                "{\"messageId\":\"m\",\"role\":null,\"parts\":null,\"contextId\":null,\"extensions\":null,\"metadata\":null}"));
        assertThat(m).isEqualTo(new Message("m", Role.UNSPECIFIED, null, null, null, null, null, null));
    }

    @Test
    void unknownFieldsAreIgnored() {
        Message m = WireCodec.of(ProtocolVersion.V1_0).readMessage(Json.parse(
                "{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"x\",\"shiny\":1}],\"future\":{\"a\":[]}}"));
        assertThat(m).isEqualTo(Message.userText("m", "x"));
    }

    @Test
    void snakeCaseFieldNamesAreAccepted() {
        var e = WireCodec.of(ProtocolVersion.V1_0).readStreamEvent(Json.parse(
                "{\"status_update\":{\"task_id\":\"t\",\"context_id\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}"));
        assertThat(e).isInstanceOfSatisfying(dev.switchboard.protocol.model.TaskStatusUpdateEvent.class, s -> {
            assertThat(s.taskId()).isEqualTo("t");
            assertThat(s.contextId()).isEqualTo("c");
        });
        assertThat(WireCodec.of(ProtocolVersion.V1_0).readTaskQuery(Json.parse("{\"id\":\"t\",\"history_length\":2}"))
                .historyLength()).isEqualTo(2);
    }

    @ParameterizedTest
    @CsvSource({
        "2025-04-02T16:59:25.331844, 2025-04-02T16:59:25.331844Z",
        "2025-04-02T16:59:25, 2025-04-02T16:59:25Z",
        "2025-04-02T16:59:25Z, 2025-04-02T16:59:25Z",
        "2025-04-02T16:59:25.331Z, 2025-04-02T16:59:25.331Z",
        "2025-04-02T16:59:25.123456789Z, 2025-04-02T16:59:25.123456789Z",
        "2025-04-02T18:59:25.5+02:00, 2025-04-02T16:59:25.5Z",
        "2025-04-02 16:59:25.1, 2025-04-02T16:59:25.1Z"
    })
    void timestampsAreReadWithOrWithoutZoneAndWithAnyFraction(String wire, String expected) {
        Task t = task(ProtocolVersion.V0_3, "{\"state\":\"working\",\"timestamp\":\"" + wire + "\"}");
        assertThat(t.status().timestamp()).isEqualTo(Instant.parse(expected));
    }

    @Test
    void timestampsAreWrittenWithExactlyThreeFractionDigitsInUtc() {
        assertThat(Timestamps.format(Instant.parse("2025-04-02T16:59:25Z"))).isEqualTo("2025-04-02T16:59:25.000Z");
        assertThat(Timestamps.format(Instant.parse("2025-04-02T16:59:25.331844Z"))).isEqualTo("2025-04-02T16:59:25.331Z");
    }

    @Test
    void badTimestampNamesTheField() {
        assertThatThrownBy(() -> task(ProtocolVersion.V1_0, "{\"state\":1,\"timestamp\":\"yesterday\"}"))
                .hasMessage("task.status.timestamp: not a timestamp: 'yesterday'");
    }

    @ParameterizedTest
    @CsvSource({"+/+/", "-_-_"})
    void rawAcceptsStandardAndUrlSafeBase64(String b64) {
        assertThat(((Part.Raw) part("{\"raw\":\"" + b64 + "\"}")).bytes())
                .containsExactly((byte) 0xfb, (byte) 0xff, (byte) 0xbf);
    }

    @ParameterizedTest
    @CsvSource({"YQ==", "YQ"})
    void rawAcceptsBase64WithOrWithoutPadding(String b64) {
        assertThat(((Part.Raw) part("{\"raw\":\"" + b64 + "\"}")).bytes()).containsExactly((byte) 'a');
    }

    @Test
    void badBase64NamesThePart() {
        assertThatThrownBy(() -> part("{\"raw\":\"**\"}")).hasMessageStartingWith("message.parts[0].raw: not base64");
    }

    @Test
    void partWithoutContentIsRejectedNamingItsPath() {
        assertThatThrownBy(() -> part("{\"mediaType\":\"text/plain\"}"))
                .isInstanceOf(A2aFormatException.class)
                .hasMessage("message.parts[0]: part has none of text, raw, url, data");
    }

    @Test
    void partWithTwoContentsIsRejected() {
        assertThatThrownBy(() -> part("{\"text\":\"a\",\"url\":\"https://x\"}"))
                .hasMessage("message.parts[0]: part has both text and url");
    }

    @Test
    void filePartWithoutBytesOrUriIsRejected() {
        assertThatThrownBy(() -> part("{\"kind\":\"file\",\"file\":{\"name\":\"x\"}}"))
                .hasMessage("message.parts[0].file: file has neither bytes nor uri");
    }

    @Test
    void unknownPartKindIsRejected() {
        assertThatThrownBy(() -> part("{\"kind\":\"video\"}")).hasMessage("message.parts[0].kind: unknown part kind 'video'");
    }

    @Test
    void eitherPartShapeIsReadByEitherVersion() {
        assertThat(part("{\"kind\":\"file\",\"file\":{\"uri\":\"https://x/a\",\"mimeType\":\"a/b\",\"name\":\"a\"}}"))
                .isEqualTo(new Part.Url("https://x/a", "a/b", "a", null));
        Message m = WireCodec.of(ProtocolVersion.V0_3).readMessage(Json.parse(
                "{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":[{\"url\":\"https://x/a\"}]}"));
        assertThat(m.parts()).containsExactly(new Part.Url("https://x/a", null, null, null));
    }

    @Test
    void wrongTypesAreRejectedNamingTheField() {
        assertThatThrownBy(() -> WireCodec.of(ProtocolVersion.V1_0).readMessage(
                Json.parse("{\"messageId\":5,\"role\":\"ROLE_USER\",\"parts\":[]}")))
                .hasMessage("message.messageId: expected a string, got number");
        assertThatThrownBy(() -> WireCodec.of(ProtocolVersion.V1_0).readMessage(
                Json.parse("{\"messageId\":\"m\",\"parts\":{}}")))
                .hasMessage("message.parts: expected an array, got object");
        assertThatThrownBy(() -> WireCodec.of(ProtocolVersion.V1_0).readMessage(
                Json.parse("{\"messageId\":\"m\",\"parts\":[],\"metadata\":\"x\"}")))
                .hasMessage("message.metadata: expected an object, got string");
    }

    @Test
    void missingRequiredIdsAreRejected() {
        assertThatThrownBy(() -> WireCodec.of(ProtocolVersion.V1_0).readMessage(Json.parse("{\"parts\":[]}")))
                .hasMessage("message.messageId: missing");
        assertThatThrownBy(() -> WireCodec.of(ProtocolVersion.V0_3).readTask(Json.parse("{\"kind\":\"task\"}")))
                .hasMessage("task.id: missing");
        assertThatThrownBy(() -> WireCodec.of(ProtocolVersion.V1_0).readSendParams(Json.parse("{}")))
                .hasMessage("params.message: missing");
    }

    @Test
    void contradictingKindIsRejected() {
        assertThatThrownBy(() -> WireCodec.of(ProtocolVersion.V0_3).readMessage(
                Json.parse("{\"kind\":\"task\",\"messageId\":\"m\"}")))
                .hasMessage("message.kind: expected 'message', got 'task'");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void int32MayArriveAsString(ProtocolVersion v) {
        assertThat(WireCodec.of(v).readTaskQuery(Json.parse("{\"id\":\"t\",\"historyLength\":\"4\"}")).historyLength())
                .isEqualTo(4);
    }

    private static Part part(String partJson) {
        return WireCodec.of(ProtocolVersion.V1_0).readMessage(
                Json.parse("{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[" + partJson + "]}")).parts().get(0);
    }
}
