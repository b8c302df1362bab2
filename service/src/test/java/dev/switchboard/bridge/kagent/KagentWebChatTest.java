package dev.switchboard.bridge.kagent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgentOptions;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * B10, kagent-v1 end to end through the web chat API, against the testkit's kagent mode served where kagent serves
 * an agent ({@code <url>/agents/<namespace>/<name>}): the extension asked for on every call, questions from the HITL
 * payload, structured answers with no prefix, step cards, kagent's error codes.
 */
@ServerTest
class KagentWebChatTest {

    @TempDir
    Path dir;
    Recorder recorder;
    SwitchboardFixture sb;
    ChatApi chat;

    private void start(TestAgentOptions options) {
        sb = SwitchboardFixture.builder().kagentAgent("sre", options)
                .yaml(agents -> ConfigYaml.server(dir.resolve("kagent.db"), false, ConfigYaml.QUICK_CONTRACT)
                        .kagentBackend("sre", agents.url("sre"), null))
                .start();
        recorder = sb.kagentAgent("sre").recorder();
        chat = sb.chat();
    }

    @AfterEach
    void stop() {
        if (sb != null) {
            sb.close();
        }
    }

    private List<RecordedRequest> sends() {
        return recorder.rpcRequests().stream().filter(RecordedRequest::isSend).toList();
    }

    private Post question(Sent s) {
        return chat.awaitPosts(s.threadId(), "the question", p -> p.stream().anyMatch(x -> "question".equals(x.kind())))
                .stream().filter(x -> "question".equals(x.kind())).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("kagent-v1: the A2A-Extensions header asks for kagent's human-in-the-loop extension when the card lists it")
    void kagent_extensionHeaderOnEveryCallWhenTheCardListsIt() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "hello");
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        assertThat(recorder.rpcRequests()).isNotEmpty().allSatisfy(r ->
                assertThat(r.requestedExtensions()).containsExactly(Hitl.URI));
    }

    @Test
    @DisplayName("kagent-v1: without the extension on the card, no A2A-Extensions header")
    void kagent_noExtensionHeaderWhenTheCardDoesNotListIt() {
        start(TestAgentOptions.kagent("sre").withKagentHitl(false));
        Sent s = chat.newThread("sre", "hello");
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        assertThat(recorder.rpcRequests()).isNotEmpty().allSatisfy(r -> assertThat(r.requestedExtensions()).isEmpty());
    }

    @Test
    @DisplayName("kagent-v1: an approval is the HITL payload; Approve resumes the task with a structured answer, no prefix")
    void kagent_approvalQuestionAndStructuredApproval() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "/approve delete_pod {\"name\":\"web-1\"}");
        Post q = question(s);
        JsonNode data = q.data();
        assertThat(data.path("type").asText()).isEqualTo("tool_approval");
        assertThat(data.path("tools").get(0).path("name").asText()).isEqualTo("delete_pod");
        assertThat(data.path("tools").get(0).path("args").asText()).contains("web-1");
        chat.awaitState(s.threadId(), s.messageId(), "waiting_for_answer");

        HttpResponse<String> r = chat.answerQuestion(s.threadId(), "{\"questionId\":\"" + q.id() + "\",\"decision\":\"approve\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        // a second click is the same answer
        assertThat(chat.answerQuestion(s.threadId(), "{\"questionId\":\"" + q.id() + "\",\"decision\":\"approve\"}")
                .statusCode()).isIn(201, 409);
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        assertThat(chat.answer(s.threadId(), s.messageId())).contains("approved delete_pod: done");

        RecordedRequest answer = sends().get(1);
        assertThat(answer.taskId()).isNotNull();
        assertThat(answer.text()).as("no person prefix on a structured answer").isEqualTo("Approved");
        assertThat(answer.metadata().path(Hitl.URI).path("type").asText()).isEqualTo("tool_approval_response");
        assertThat(answer.metadata().path(Hitl.URI).path("approvals").get(0).path("approved").asBoolean()).isTrue();
        assertThat(answer.metadata().has("agentkourier.dev/actor")).isFalse();
        assertThat(answer.body()).contains("\"extensions\"");
        assertThat(sends()).as("answered once").hasSize(2);
        // step cards: the approved tool's call and its result
        List<Post> steps = chat.posts(s.threadId()).stream().filter(p -> "step".equals(p.kind())).toList();
        assertThat(steps).extracting(p -> p.data().path("kind").asText()).contains("call", "result");
    }

    @Test
    @DisplayName("kagent-v1: a nested approval shows the subagent's tools, and the answer approves those")
    void kagent_nestedApprovalAnswersTheSubagentsTools() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "/approvenested");
        Post q = question(s);
        assertThat(q.data().path("subagent").asText()).isNotBlank();
        assertThat(chat.answerQuestion(s.threadId(), "{\"questionId\":\"" + q.id() + "\",\"decision\":\"approve\"}")
                .statusCode()).isEqualTo(201);
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        JsonNode approvals = sends().get(1).metadata().path(Hitl.URI).path("approvals");
        assertThat(approvals).hasSize(q.data().path("tools").size());
        for (int i = 0; i < approvals.size(); i++) {
            assertThat(approvals.get(i).path("id").asText()).as("the nested tools' ids")
                    .isEqualTo(q.data().path("tools").get(i).path("id").asText());
        }
        assertThat(chat.answer(s.threadId(), s.messageId())).contains("approved");
    }

    @Test
    @DisplayName("kagent-v1: several tools of one request are approved or rejected together")
    void kagent_severalToolsInOneRequest() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "/approvemany");
        Post q = question(s);
        assertThat(q.data().path("tools").size()).isGreaterThan(1);
        assertThat(chat.answerQuestion(s.threadId(), "{\"questionId\":\"" + q.id() + "\",\"decision\":\"reject\"}")
                .statusCode()).isEqualTo(201);
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        assertThat(sends().get(1).metadata().path(Hitl.URI).path("approvals")).hasSize(q.data().path("tools").size())
                .allSatisfy(a -> assertThat(a.path("approved").asBoolean(true)).isFalse());
    }

    @Test
    @DisplayName("kagent-v1: Reject carries its reason to the agent")
    void kagent_rejectionWithAReason() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "/approve delete_pod");
        Post q = question(s);
        assertThat(chat.answerQuestion(s.threadId(), "{\"questionId\":\"" + q.id()
                + "\",\"decision\":\"reject\",\"reason\":\"not during business hours\"}").statusCode()).isEqualTo(201);
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        assertThat(chat.answer(s.threadId(), s.messageId())).contains("rejected delete_pod: not during business hours");
    }

    @Test
    @DisplayName("kagent-v1: a typed reply approves only when it is a clear yes; anything else rejects with its words")
    void kagent_typedRepliesToAnApproval() {
        start(TestAgentOptions.kagent("sre"));
        Sent no = chat.newThread("sre", "/approve delete_pod");
        question(no);
        chat.awaitState(no.threadId(), no.messageId(), "waiting_for_answer");
        chat.send(no.threadId(), "wait, use the staging cluster");
        chat.awaitState(no.threadId(), no.messageId(), "completed");
        assertThat(chat.answer(no.threadId(), no.messageId())).contains("rejected delete_pod: wait, use the staging cluster");

        Sent yes = chat.newThread("sre", "/approve scale_up");
        question(yes);
        chat.awaitState(yes.threadId(), yes.messageId(), "waiting_for_answer");
        chat.send(yes.threadId(), "yes");
        chat.awaitState(yes.threadId(), yes.messageId(), "completed");
        assertThat(chat.answer(yes.threadId(), yes.messageId())).contains("approved scale_up: done");
    }

    @Test
    @DisplayName("kagent-v1: ask-user shows its questions and options; answers go back positionally")
    void kagent_askUserQuestionsAndAnswers() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "/askuser");
        Post q = question(s);
        assertThat(q.data().path("type").asText()).isEqualTo("ask_user");
        JsonNode questions = q.data().path("questions");
        assertThat(questions).hasSize(2);
        String first = questions.get(0).path("choices").get(0).asText();
        String a = questions.get(1).path("choices").get(0).asText();
        String b = questions.get(1).path("choices").get(1).asText();
        // a decision does not answer questions; too few answers are named
        assertThat(chat.answerQuestion(s.threadId(), "{\"questionId\":\"" + q.id() + "\",\"decision\":\"approve\"}")
                .statusCode()).isEqualTo(409);
        HttpResponse<String> few = chat.answerQuestion(s.threadId(), "{\"questionId\":\"" + q.id() + "\",\"answers\":[\"x\"]}");
        assertThat(few.statusCode()).isEqualTo(409);
        assertThat(few.body()).contains("answer every question");
        HttpResponse<String> r = chat.answerQuestion(s.threadId(), "{\"questionId\":\"" + q.id() + "\",\"answers\":[\""
                + first + "\",[\"" + a + "\",\"" + b + "\"]]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        RecordedRequest answer = sends().get(1);
        JsonNode payload = answer.metadata().path(Hitl.URI);
        assertThat(payload.path("type").asText()).isEqualTo("ask_user_response");
        assertThat(payload.path("answers").get(1).path("answer")).hasSize(2);
    }

    @Test
    @DisplayName("kagent-v1: structured answers to no question, or malformed, are refused naming the field")
    void kagent_badStructuredAnswersAreRefused() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "hello");
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        assertThat(chat.answerQuestion(s.threadId(), "{\"questionId\":\"nope\",\"decision\":\"approve\"}").statusCode())
                .isEqualTo(409);
        HttpResponse<String> bad = chat.answerQuestion(s.threadId(), "{\"questionId\":\"q\",\"decision\":\"maybe\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("decision");
        assertThat(chat.answerQuestion(s.threadId(), "{\"decision\":\"approve\"}").body()).contains("questionId");
        assertThat(chat.answerQuestion(s.threadId(), "{\"questionId\":\"q\"}").statusCode()).isEqualTo(400);
    }

    @Test
    @DisplayName("kagent-v1: tool-call and tool-result data parts are shown as step cards")
    void kagent_stepCards() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "/steps");
        chat.awaitState(s.threadId(), s.messageId(), "completed");
        List<Post> steps = chat.posts(s.threadId()).stream().filter(p -> "step".equals(p.kind())).toList();
        assertThat(steps).hasSizeGreaterThanOrEqualTo(2);
        assertThat(steps).extracting(p -> p.data().path("kind").asText()).contains("call", "result");
        assertThat(steps).allSatisfy(p -> assertThat(p.data().path("name").asText()).isNotBlank());
    }

    @Test
    @DisplayName("kagent-v1: kagent's MAX_TOKENS code is the context-limit category")
    void kagent_errorCodeCategory() {
        start(TestAgentOptions.kagent("sre"));
        Sent s = chat.newThread("sre", "/kfail MAX_TOKENS");
        chat.awaitState(s.threadId(), s.messageId(), "failed");
        assertThat(chat.notices(s.threadId(), s.messageId())).anySatisfy(n -> assertThat(n).contains("context limit"));
    }
}
