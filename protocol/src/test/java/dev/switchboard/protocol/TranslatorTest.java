package dev.switchboard.protocol;

import static dev.switchboard.protocol.ProtocolVersion.V0_3;
import static dev.switchboard.protocol.ProtocolVersion.V1_0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.model.TaskState;
import org.junit.jupiter.api.Test;

class TranslatorTest {

    private static final String MSG_10 = "{\"messageId\":\"m-1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}";
    private static final String MSG_03 = "{\"kind\":\"message\",\"messageId\":\"m-1\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}]}";

    @Test
    void methodNamesMapBothWaysAndListTasksHasNo03Name() {
        assertThat(Translator.method("SendMessage", V0_3)).contains("message/send");
        assertThat(Translator.method("tasks/resubscribe", V1_0)).contains("SubscribeToTask");
        assertThat(Translator.method("ListTaskPushNotificationConfigs", V0_3)).contains("tasks/pushNotificationConfig/list");
        assertThat(Translator.method("ListTasks", V0_3)).isEmpty();
        assertThat(Translator.method("nope", V1_0)).isEmpty();
    }

    @Test
    void sendParamsTranslateKindEnumsAndInvertBlocking() {
        JsonNode p03 = Json.parse("{\"message\":" + MSG_03 + ",\"configuration\":{\"blocking\":false,\"historyLength\":2}}");
        JsonNode p10 = Translator.params(A2aMethod.SEND_MESSAGE, p03, V0_3, V1_0);
        assertThat(p10).isEqualTo(Json.parse("{\"message\":" + MSG_10 + ",\"configuration\":{\"historyLength\":2,\"returnImmediately\":true}}"));
        assertThat(Translator.params(A2aMethod.SEND_MESSAGE, p10, V1_0, V0_3)).isEqualTo(p03);
    }

    @Test
    void absentBlockingStaysAbsent() {
        JsonNode p10 = Json.parse("{\"message\":" + MSG_10 + ",\"configuration\":{\"acceptedOutputModes\":[\"text/plain\"]}}");
        JsonNode p03 = Translator.params(A2aMethod.SEND_STREAMING_MESSAGE, p10, V1_0, V0_3);
        assertThat(p03.get("configuration").has("blocking")).isFalse();
    }

    @Test
    void sendConfigurationPushConfigChangesShape() {
        JsonNode p10 = Json.parse("{\"message\":" + MSG_10 + ",\"configuration\":{\"taskPushNotificationConfig\":"
                + "{\"url\":\"https://h\",\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"x\"}}}}");
        JsonNode p03 = Translator.params(A2aMethod.SEND_MESSAGE, p10, V1_0, V0_3);
        assertThat(p03.at("/configuration/pushNotificationConfig")).isEqualTo(
                Json.parse("{\"url\":\"https://h\",\"authentication\":{\"schemes\":[\"Bearer\"],\"credentials\":\"x\"}}"));
        assertThat(Translator.params(A2aMethod.SEND_MESSAGE, p03, V0_3, V1_0)).isEqualTo(p10);
    }

    @Test
    void partFieldNamesAreTranslated() {
        JsonNode p10 = Json.parse("{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":["
                + "{\"raw\":\"YQ==\",\"filename\":\"a.txt\",\"mediaType\":\"text/plain\"},{\"url\":\"https://u\",\"filename\":\"u.pdf\"}]}}");
        JsonNode parts = Translator.params(A2aMethod.SEND_MESSAGE, p10, V1_0, V0_3).at("/message/parts");
        assertThat(parts.get(0)).isEqualTo(Json.parse("{\"kind\":\"file\",\"file\":{\"bytes\":\"YQ==\",\"name\":\"a.txt\",\"mimeType\":\"text/plain\"}}"));
        assertThat(parts.get(1)).isEqualTo(Json.parse("{\"kind\":\"file\",\"file\":{\"uri\":\"https://u\",\"name\":\"u.pdf\"}}"));
    }

    @Test
    void sendResultIsWrappedAndUnwrapped() {
        JsonNode r10 = Json.parse("{\"message\":" + MSG_10 + "}");
        assertThat(Translator.result(A2aMethod.SEND_MESSAGE, r10, V1_0, V0_3)).isEqualTo(Json.parse(MSG_03));
        assertThat(Translator.result(A2aMethod.SEND_MESSAGE, Json.parse(MSG_03), V0_3, V1_0)).isEqualTo(r10);
    }

    @Test
    void getTaskResultStaysBareInBothVersions() {
        JsonNode t10 = Json.parse("{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_CANCELED\"}}");
        JsonNode t03 = Translator.result(A2aMethod.GET_TASK, t10, V1_0, V0_3);
        assertThat(t03).isEqualTo(Json.parse("{\"kind\":\"task\",\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"canceled\"}}"));
        assertThat(Translator.result(A2aMethod.CANCEL_TASK, t03, V0_3, V1_0)).isEqualTo(t10);
    }

    @Test
    void statusUpdateGetsFinalOnTerminalAndInputRequiredWhenGoingTo03() {
        for (TaskState s : TaskState.values()) {
            JsonNode e10 = Json.parse("{\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_" + s.name() + "\"}}}");
            JsonNode e03 = Translator.result(A2aMethod.SEND_STREAMING_MESSAGE, e10, V1_0, V0_3);
            boolean expected = s.isTerminal() || s == TaskState.INPUT_REQUIRED;
            assertThat(e03.get("final").asBoolean()).as(s.name()).isEqualTo(expected);
            assertThat(e03.get("kind").asText()).isEqualTo("status-update");
        }
    }

    @Test
    void finalIsDroppedGoingTo10() {
        JsonNode e03 = Json.parse("{\"kind\":\"status-update\",\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"completed\"},\"final\":true}");
        assertThat(Translator.result(A2aMethod.SUBSCRIBE_TO_TASK, e03, V0_3, V1_0)).isEqualTo(Json.parse(
                "{\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}"));
    }

    @Test
    void artifactUpdateTranslatesBothWays() {
        JsonNode e10 = Json.parse("{\"artifactUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a\","
                + "\"parts\":[{\"data\":[1,2]}]},\"append\":true}}");
        JsonNode e03 = Translator.result(A2aMethod.SEND_STREAMING_MESSAGE, e10, V1_0, V0_3);
        assertThat(e03).isEqualTo(Json.parse("{\"kind\":\"artifact-update\",\"taskId\":\"t\",\"contextId\":\"c\",\"artifact\":"
                + "{\"artifactId\":\"a\",\"parts\":[{\"kind\":\"data\",\"data\":{\"value\":[1,2]}}]},\"append\":true}"));
    }

    @Test
    void taskQueryDropsTenantGoingTo03() {
        JsonNode q10 = Json.parse("{\"tenant\":\"x\",\"id\":\"t\",\"historyLength\":0}");
        assertThat(Translator.params(A2aMethod.GET_TASK, q10, V1_0, V0_3)).isEqualTo(Json.parse("{\"id\":\"t\",\"historyLength\":0}"));
    }

    @Test
    void pushConfigMethodsTranslateParamsAndResults() {
        JsonNode set03 = Json.parse("{\"taskId\":\"t\",\"pushNotificationConfig\":{\"url\":\"https://h\"}}");
        JsonNode set10 = Json.parse("{\"taskId\":\"t\",\"url\":\"https://h\"}");
        assertThat(Translator.params(A2aMethod.CREATE_PUSH_CONFIG, set03, V0_3, V1_0)).isEqualTo(set10);
        assertThat(Translator.result(A2aMethod.GET_PUSH_CONFIG, set10, V1_0, V0_3)).isEqualTo(set03);
        assertThat(Translator.params(A2aMethod.DELETE_PUSH_CONFIG, Json.parse("{\"taskId\":\"t\",\"id\":\"c\"}"), V1_0, V0_3))
                .isEqualTo(Json.parse("{\"id\":\"t\",\"pushNotificationConfigId\":\"c\"}"));
        assertThat(Translator.result(A2aMethod.DELETE_PUSH_CONFIG, Json.object(), V1_0, V0_3).isNull()).isTrue();
        assertThat(Translator.result(A2aMethod.LIST_PUSH_CONFIGS, Json.parse("[" + set03 + "]"), V0_3, V1_0))
                .isEqualTo(Json.parse("{\"configs\":[" + set10 + "],\"nextPageToken\":\"\"}"));
    }

    @Test
    void extendedCardResultChangesShape() {
        JsonNode card10 = Json.parse("{\"name\":\"n\",\"description\":\"d\",\"version\":\"1\",\"supportedInterfaces\":"
                + "[{\"url\":\"https://a\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"0.3\"}]}");
        JsonNode card03 = Translator.result(A2aMethod.GET_EXTENDED_CARD, card10, V1_0, V0_3);
        assertThat(card03.get("url").asText()).isEqualTo("https://a");
        assertThat(card03.has("supportedInterfaces")).isFalse();
        assertThat(Translator.params(A2aMethod.GET_EXTENDED_CARD, null, V1_0, V0_3)).isNull();
    }

    @Test
    void errorsGainErrorInfoGoingTo10AndKeepDataGoingTo03() {
        JsonNode e03 = Json.parse("{\"code\":-32002,\"message\":\"Task cannot be canceled\"}");
        JsonNode e10 = Translator.error(e03, V0_3, V1_0);
        assertThat(e10.at("/data/0/reason").asText()).isEqualTo("TASK_NOT_CANCELABLE");
        assertThat(Translator.error(e10, V1_0, V0_3)).isEqualTo(e10);
    }

    @Test
    void sameVersionReturnsTheInputUntouched() {
        JsonNode anything = Json.parse("{\"weird\":true}");
        assertThat(Translator.params(A2aMethod.SEND_MESSAGE, anything, V1_0, V1_0)).isSameAs(anything);
        assertThat(Translator.result(A2aMethod.GET_TASK, anything, V0_3, V0_3)).isSameAs(anything);
    }

    @Test
    void listTasksCannotBeTranslated() {
        assertThatThrownBy(() -> Translator.params(A2aMethod.LIST_TASKS, Json.object(), V1_0, V0_3))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void malformedPayloadThrowsFormatException() {
        assertThatThrownBy(() -> Translator.result(A2aMethod.SEND_MESSAGE, Json.parse("{\"id\":\"t\"}"), V1_0, V0_3))
                .isInstanceOf(dev.switchboard.protocol.codec.A2aFormatException.class);
    }
}
