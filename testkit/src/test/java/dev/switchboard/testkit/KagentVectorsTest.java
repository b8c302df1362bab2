package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The kagent vectors load, read as A2A 1.0 with the protocol codec, and hold the shapes their README names. */
class KagentVectorsTest {

    private static final String URI = "https://kagent.dev/extensions/hitl/v1";
    private static final WireCodec V10 = WireCodec.of(ProtocolVersion.V1_0);

    @Test
    void everyVectorIsListedAndEveryListedVectorExists() throws Exception {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/kagent"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")))
                    .containsExactlyInAnyOrderElementsOf(KagentVectors.FILES);
        }
        KagentVectors.FILES.forEach(f -> assertThat(KagentVectors.json(f).isObject()).as(f).isTrue());
        assertThatThrownBy(() -> KagentVectors.json("nope.json")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void streamEventsReadAsOnePointZeroStatusUpdates() {
        for (String file : KagentVectors.FILES) {
            JsonNode json = KagentVectors.json(file);
            if (json.has("statusUpdate")) {
                StreamEvent event = V10.readStreamEvent(json);
                assertThat(event).as(file).isInstanceOf(TaskStatusUpdateEvent.class);
            } else if (json.has("message")) {
                assertThat(V10.readSendParams(json).message().extensions()).as(file).containsExactly(URI);
            }
        }
    }

    @Test
    void approvalRequestCarriesTheExtensionAndItsPayload() {
        TaskStatusUpdateEvent event = (TaskStatusUpdateEvent) V10.readStreamEvent(KagentVectors.json("tool_approval_request.json"));
        Message message = event.status().message();
        assertThat(event.status().state()).isEqualTo(TaskState.INPUT_REQUIRED);
        assertThat(message.extensions()).containsExactly(URI);
        assertThat(message.text()).isNotBlank();
        JsonNode payload = message.metadata().get(URI);
        assertThat(payload.path("type").asText()).isEqualTo("tool_approval_request");
        assertThat(payload.path("tools").get(0).fieldNames()).toIterable().containsExactly("id", "call_id", "name", "args");
    }

    @Test
    void nestedRequestsAreAnsweredWithTheNestedIds() {
        JsonNode request = KagentVectors.json("tool_approval_request_nested.json")
                .at("/statusUpdate/status/message/metadata").get(URI);
        JsonNode answer = KagentVectors.json("tool_approval_response_nested.json").at("/message/metadata").get(URI);
        assertThat(answer.at("/approvals/0/id").asText()).isEqualTo(request.at("/nested/tools/0/id").asText());
    }

    @Test
    void askUserAnswersArePositional() {
        JsonNode request = KagentVectors.json("ask_user_request.json").at("/statusUpdate/status/message/metadata").get(URI);
        JsonNode answer = KagentVectors.json("ask_user_response.json").at("/message/metadata").get(URI);
        assertThat(answer.path("id").asText()).isEqualTo(request.path("id").asText());
        assertThat(answer.path("answers").size()).isEqualTo(request.path("questions").size());
        assertThat(request.at("/questions/0/multiple").asBoolean()).isFalse();
        assertThat(request.at("/questions/1/multiple").asBoolean()).isTrue();
    }

    @Test
    void stepCardsAreDataPartsTypedInTheirMetadata() {
        TaskStatusUpdateEvent call = (TaskStatusUpdateEvent) V10.readStreamEvent(KagentVectors.json("step_function_call.json"));
        assertThat(call.status().message().parts()).hasSize(2);
        Part.Data data = (Part.Data) call.status().message().parts().get(1);
        assertThat(data.metadata().path("kagent_type").asText()).isEqualTo("function_call");
        assertThat(data.data().path("name").asText()).isEqualTo("get_pods");
        TaskStatusUpdateEvent adk = (TaskStatusUpdateEvent) V10.readStreamEvent(KagentVectors.json("step_adk_type.json"));
        assertThat(adk.status().message().parts()).extracting(p -> p.metadata().path("adk_type").asText())
                .containsExactly("function_call", "function_response");
    }

    @Test
    void failedStatusNamesKagentsErrorCode() {
        TaskStatusUpdateEvent failed = (TaskStatusUpdateEvent) V10.readStreamEvent(KagentVectors.json("failed_max_tokens.json"));
        assertThat(failed.status().state()).isEqualTo(TaskState.FAILED);
        assertThat(failed.status().message().metadataText("kagent_error_code")).isEqualTo("MAX_TOKENS");
    }
}
