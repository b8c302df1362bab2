package dev.switchboard.bridge.kagent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.protocol.kagent.StepCard;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import dev.switchboard.testkit.KagentVectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kagent's wire shapes, read and written by {@code protocol.kagent} against the vectors taken from kagent's own source
 * (testkit/src/main/resources/kagent/README.md names where each came from).
 */
class KagentWireTest {

    private static final WireCodec V10 = WireCodec.of(ProtocolVersion.V1_0);

    private static Message statusMessage(String vector) {
        JsonNode json = KagentVectors.json(vector);
        StreamEvent e = V10.readStreamEvent(json);
        return ((TaskStatusUpdateEvent) e).status().message();
    }

    private static Message message(String vector) {
        return V10.readMessage(KagentVectors.json(vector).path("message"));
    }

    @Test
    void anApprovalRequestIsReadFromTheStatusMessagesMetadata() {
        Hitl.Request r = Hitl.request(statusMessage("tool_approval_request.json")).orElseThrow();
        assertThat(r).isInstanceOf(Hitl.Request.ToolApproval.class);
        Hitl.Request.ToolApproval a = (Hitl.Request.ToolApproval) r;
        assertThat(a.tools()).hasSize(1);
        assertThat(a.tools().get(0).name()).isNotBlank();
        assertThat(a.tools().get(0).argsJson()).startsWith("{");
    }

    @Test
    void aNestedApprovalShowsAndAnswersTheSubagentsTools() {
        Hitl.Request.ToolApproval a = (Hitl.Request.ToolApproval) Hitl.request(
                statusMessage("tool_approval_request_nested.json")).orElseThrow();
        assertThat(a.subagent()).isEqualTo("k8s_agent");
        assertThat(a.tools()).extracting(Hitl.Tool::id).containsExactly("child-approval-1");
        Message answer = Hitl.answer("approval-response-3", "task-123", "conversation-456", a,
                new Hitl.Answer.Decision(true, null));
        Message expected = message("tool_approval_response_nested.json");
        assertThat(answer.metadata()).isEqualTo(expected.metadata());
        assertThat(answer.extensions()).isEqualTo(expected.extensions());
        assertThat(answer.taskId()).isEqualTo("task-123");
        assertThat(answer.contextId()).isEqualTo("conversation-456");
    }

    @Test
    void severalToolsAreOneRequestAndARejectionCarriesItsReason() {
        Hitl.Request.ToolApproval a = (Hitl.Request.ToolApproval) Hitl.request(
                statusMessage("tool_approval_request_many.json")).orElseThrow();
        assertThat(a.tools()).hasSizeGreaterThan(1);
        Message answer = Hitl.answer("m", "t", "c", a, new Hitl.Answer.Decision(false, "not in business hours"));
        JsonNode approvals = answer.metadata().path(Hitl.URI).path("approvals");
        assertThat(approvals).hasSize(a.tools().size());
        approvals.forEach(x -> {
            assertThat(x.path("approved").asBoolean(true)).isFalse();
            assertThat(x.path("rejection_reason").asText()).isEqualTo("not in business hours");
        });
        assertThat(answer.text()).isEqualTo("Rejected: not in business hours");
    }

    @Test
    void askUserIsReadAndAnsweredPositionally() {
        Hitl.Request.AskUser ask = (Hitl.Request.AskUser) Hitl.request(statusMessage("ask_user_request.json")).orElseThrow();
        assertThat(ask.questions()).extracting(Hitl.Question::multiple).containsExactly(false, true);
        assertThat(ask.questions().get(0).choices()).containsExactly("PostgreSQL", "MySQL", "SQLite");
        Hitl.Answer.Answers answers = new Hitl.Answer.Answers(List.of(List.of("PostgreSQL"),
                List.of("Authentication", "Caching")));
        assertThat(Hitl.problem(ask, answers)).isNull();
        Message answer = Hitl.answer("ask-user-response-1", "task-123", "conversation-456", ask, answers);
        Message expected = message("ask_user_response.json");
        assertThat(answer.metadata()).isEqualTo(expected.metadata());
        assertThat(answer.text()).isEqualTo(expected.text());
        assertThat(Hitl.problem(ask, new Hitl.Answer.Answers(List.of(List.of("PostgreSQL"))))).contains("answer every question");
        assertThat(Hitl.problem(ask, new Hitl.Answer.Answers(List.of(List.of("PostgreSQL", "MySQL"), List.of("Caching")))))
                .contains("one answer");
        assertThat(Hitl.problem(ask, new Hitl.Answer.Decision(true, null))).isNotNull();
    }

    @Test
    void withoutThePayloadThereIsNoStructuredRequest() {
        assertThat(Hitl.request(statusMessage("hitl_not_activated.json"))).isEmpty();
    }

    @Test
    void aRequestSurvivesItsStoredForm() {
        for (String v : List.of("tool_approval_request.json", "tool_approval_request_nested.json", "ask_user_request.json")) {
            Hitl.Request r = Hitl.request(statusMessage(v)).orElseThrow();
            assertThat(Hitl.parseRequest(Hitl.write(r))).isEqualTo(r);
        }
    }

    @Test
    void stepCardsAreReadFromKagentAndAdkTypedDataParts() {
        List<StepCard> call = StepCard.of(statusMessage("step_function_call.json").parts());
        assertThat(call).singleElement().satisfies(c -> {
            assertThat(c.kind()).isEqualTo(StepCard.Kind.CALL);
            assertThat(c.name()).isEqualTo("get_pods");
        });
        List<StepCard> result = StepCard.of(statusMessage("step_function_response.json").parts());
        assertThat(result).singleElement().satisfies(c -> {
            assertThat(c.kind()).isEqualTo(StepCard.Kind.RESULT);
            assertThat(c.detailJson()).contains("3 pods");
            assertThat(c.error()).isFalse();
        });
        assertThat(StepCard.of(statusMessage("step_adk_type.json").parts())).extracting(StepCard::kind)
                .containsExactly(StepCard.Kind.CALL, StepCard.Kind.RESULT);
    }
}
