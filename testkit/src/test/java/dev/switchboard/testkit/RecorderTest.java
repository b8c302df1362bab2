package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RecorderTest extends AgentTestSupport {

    @BeforeEach
    void clear() {
        agent.recorder().clear();
    }

    @Test
    void recordsEverythingASendCarries() {
        WireClient client = client(ProtocolVersion.V1_0);
        ObjectNode message = client.message("[Slack: Ada (U1)]\nhello");
        message.put("contextId", "ctx-rec");
        message.putObject("metadata").putObject("agentkourier.dev/actor").put("id", "U1");
        client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message));

        RecordedRequest request = agent.recorder().lastRequest();
        assertThat(request.httpMethod()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/");
        assertThat(request.header("A2A-VERSION")).isEqualTo("1.0");
        assertThat(request.headers().get("content-type")).isEqualTo("application/json");
        assertThat(request.rpcMethod()).isEqualTo("SendMessage");
        assertThat(request.id().isInt()).isTrue();
        assertThat(request.messageId()).isEqualTo(message.path("messageId").asText());
        assertThat(request.contextId()).isEqualTo("ctx-rec");
        assertThat(request.taskId()).isNull();
        assertThat(request.metadata().path("agentkourier.dev/actor").path("id").asText()).isEqualTo("U1");
        assertThat(request.text()).isEqualTo("[Slack: Ada (U1)]\nhello");
        assertThat(request.body()).contains("\"method\":\"SendMessage\"");
        assertThat(request.isSend()).isTrue();
    }

    @Test
    void recordsTheZeroThreeNamesAndTheAnswerTaskId() {
        WireClient client = client(ProtocolVersion.V0_3);
        String taskId = client.sendText("/ask Why?").path("id").asText();
        ObjectNode answer = client.message("Because");
        answer.put("taskId", taskId);
        client.streamResults(A2aMethod.SEND_STREAMING_MESSAGE, WireClient.params(answer));

        assertThat(agent.recorder().rpcMethods()).containsExactly("message/send", "message/stream");
        assertThat(agent.recorder().lastRequest().taskId()).isEqualTo(taskId);
        assertThat(agent.recorder().lastRequest().header("A2A-Version")).isNull();
    }

    @Test
    void keepsMessageIdsInOrderWithRepeats() {
        WireClient client = client(ProtocolVersion.V1_0);
        ObjectNode message = client.message("twice");
        client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message));
        client.call(A2aMethod.SEND_MESSAGE, WireClient.params(message));
        client.call(A2aMethod.GET_TASK, WireClient.JSON.createObjectNode().put("id", "x"));

        String id = message.path("messageId").asText();
        assertThat(agent.recorder().messageIds()).containsExactly(id, id);
        assertThat(agent.recorder().requests()).hasSize(3);
        assertThat(agent.recorder().rpcRequests()).extracting(RecordedRequest::isSend).containsExactly(true, true, false);
    }

    @Test
    void keepsTheRawBodyOfInvalidJson() {
        client(ProtocolVersion.V0_3).post("{oops");

        RecordedRequest request = agent.recorder().lastRequest();
        assertThat(request.body()).isEqualTo("{oops");
        assertThat(request.rpcMethod()).isNull();
        assertThat(request.messageId()).isNull();
    }

    @Test
    void clearForgetsEverything() {
        client(ProtocolVersion.V1_0).sendText("x");
        agent.recorder().clear();

        assertThat(agent.recorder().requests()).isEmpty();
        assertThatThrownBy(() -> agent.recorder().lastRequest()).isInstanceOf(IllegalStateException.class);
    }
}
