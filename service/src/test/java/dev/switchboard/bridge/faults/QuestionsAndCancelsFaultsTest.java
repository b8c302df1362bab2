package dev.switchboard.bridge.faults;

import static dev.switchboard.bridge.faults.FaultBridge.CANCEL_ATTEMPTS;
import static dev.switchboard.bridge.faults.FaultBridge.channel;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgentOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Questions (B9), auth-required, and the cancels (B13) against agents that ask what cannot be shown,
 * ask where questions are not allowed or not answered in time, reject an answer, or refuse to be
 * cancelled: what the thread shows, and the CancelTask calls the agent receives.
 */
@ServerTest
class QuestionsAndCancelsFaultsTest extends FaultTest {

    private static final Duration QUESTION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration SLACK = Duration.ofMillis(150);

    @Override
    FaultBridge.Builder agents(FaultBridge.Builder builder) {
        return builder.echoPerVersion()
                .agent("hurry", TestAgentOptions.echo("hurry"),
                        "questions: {allowed: true, timeout: " + QUESTION_TIMEOUT.toMillis() + "ms}")
                .agent("closed", TestAgentOptions.echo("closed"), "questions: {allowed: false}")
                .agent("stubborn", TestAgentOptions.echo("stubborn").withCancelable(false));
    }

    // ================= a question and its answer =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aQuestionIsShownAndTheNextReplyIsItsAnswerSentToThePausedTask(ProtocolVersion v) {
        String name = channel(v);
        Sent asked = chat.newThread(name, "/ask What is your name?");
        List<Post> posts = chat.awaitState(asked, "waiting_for_answer");
        assertThat(posts).filteredOn(p -> "question".equals(p.kind())).extracting(Post::text)
                .containsExactly("What is your name?");

        Sent answer = chat.send(asked.threadId(), "Ada");
        chat.awaitState(asked, "completed");
        assertThat(chat.answer(asked.threadId(), asked.messageId())).isEqualTo("Ada");

        RecordedRequest first = sends(name, asked.messageId()).get(0);
        RecordedRequest sent = single(sends(name, answer.messageId()));
        assertThat(sent.messageId()).as("the answer has its own messageId").isNotEqualTo(asked.messageId());
        assertThat(sent.taskId()).as("to the paused task").isNotNull();
        assertThat(sent.contextId()).isNotNull();
        assertThat(first.taskId()).as("a new turn never sets a taskId").isNull();
        JsonNode parts = ChatApi.read(sent.body()).path("params").path("message").path("parts");
        assertThat(parts).as("one text part").hasSize(1);
        assertThat(parts.get(0).path("text").asText()).endsWith("\nAda");
        assertThat(chat.notices(asked.threadId(), asked.messageId())).isEmpty();
    }

    // ================= cancels =================

    @Test
    void aQuestionNotAnsweredInTimeIsCancelled() {
        Sent asked = chat.newThread("hurry", "/ask Anyone there?");
        chat.awaitState(asked, "waiting_for_answer");

        Post post = chat.awaitFinal(asked);
        assertThat(post.state()).isEqualTo("canceled");
        assertThat(chat.notices(asked.threadId(), asked.messageId())).containsExactly(Notices.QUESTION_TIMED_OUT);
        Post question = chat.posts(asked.threadId(), asked.messageId(), "question").get(0);
        RecordedRequest cancel = single(calls("hurry", "CancelTask"));
        assertThat(taskIdOf(cancel)).isEqualTo(taskOf("hurry", asked.messageId()));
        assertThat(Duration.between(question.createdAt(), cancel.receivedAt()))
                .as("after the Binding's question timeout").isGreaterThanOrEqualTo(QUESTION_TIMEOUT.minus(SLACK));
    }

    @Test
    void aQuestionTheBindingDoesNotAllowIsCancelledAndNotShown() {
        Sent asked = chat.newThread("closed", "/ask May I ask?");

        Post post = chat.awaitFinal(asked);
        assertThat(post.state()).isEqualTo("canceled");
        assertThat(chat.notices(asked.threadId(), asked.messageId())).containsExactly(Notices.QUESTION_NOT_ALLOWED);
        assertThat(chat.posts(asked.threadId(), asked.messageId(), "question")).isEmpty();
        assertThat(taskIdOf(single(calls("closed", "CancelTask")))).isEqualTo(taskOf("closed", asked.messageId()));
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aQuestionThatCannotBeShownIsCancelled(ProtocolVersion v) {
        String name = channel(v);
        Sent asked = chat.newThread(name, "/askdata");

        Post post = chat.awaitFinal(asked);
        assertThat(post.state()).isEqualTo("canceled");
        assertThat(chat.notices(asked.threadId(), asked.messageId())).containsExactly(Notices.QUESTION_UNSHOWABLE);
        assertThat(chat.posts(asked.threadId(), asked.messageId(), "question")).isEmpty();
        String cancel = v == ProtocolVersion.V1_0 ? "CancelTask" : "tasks/cancel";
        assertThat(calls(name, cancel)).isNotEmpty();
        if (v == ProtocolVersion.V1_0) {
            assertThat(calls(name, cancel)).extracting(QuestionsAndCancelsFaultsTest::taskIdOf)
                    .contains(taskOf(name, asked.messageId()));
        }
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void anAnswerTheAgentRejectsWithMinus32603CancelsThePausedTask(ProtocolVersion v) {
        String name = channel(v);
        Sent asked = chat.newThread(name, "/ask Which region?");
        chat.awaitState(asked, "waiting_for_answer");

        Sent answer = chat.send(asked.threadId(), "/error -32603 region mars-1 is not a region");
        Post post = chat.awaitFinal(asked);
        assertThat(post.state()).isEqualTo("canceled");
        assertThat(chat.notices(asked.threadId(), asked.messageId())).containsExactly(Notices.ANSWER_REJECTED);
        assertThat(chat.posts(asked.threadId())).filteredOn(p -> !p.isUser()).extracting(Post::text)
                .noneMatch(t -> t.contains("mars-1 is not"));
        String task = single(sends(name, answer.messageId())).taskId();
        assertThat(task).as("the answer went to the paused task").isNotNull();
        String cancel = v == ProtocolVersion.V1_0 ? "CancelTask" : "tasks/cancel";
        assertThat(calls(name, cancel)).extracting(QuestionsAndCancelsFaultsTest::taskIdOf).contains(task);
    }

    @Test
    void aCancelTheAgentKeepsRefusingIsRetriedAFewTimesThenReported() {
        Sent asked = chat.newThread("stubborn", "/askdata");

        Post post = chat.awaitFinal(asked);
        assertThat(post.state()).isEqualTo("canceled");
        assertThat(chat.notices(asked.threadId(), asked.messageId()))
                .containsExactly(Notices.QUESTION_UNSHOWABLE, Notices.CANCEL_FAILED);
        List<RecordedRequest> cancels = calls("stubborn", "CancelTask");
        assertThat(cancels).hasSize(CANCEL_ATTEMPTS)
                .allSatisfy(c -> assertThat(taskIdOf(c)).isEqualTo(taskOf("stubborn", asked.messageId())));
        assertThat(calls("stubborn", "GetTask")).as("each failed cancel is checked with GetTask")
                .hasSizeGreaterThanOrEqualTo(CANCEL_ATTEMPTS);
    }

    // ================= auth-required =================

    @Test
    void anAuthRequiredTaskPausesTheThreadUntilATypedReplyFindsItMovedOn() throws Exception {
        Sent paused = chat.newThread("v10", "/auth 800\nsigned in at last");
        chat.awaitState(paused, "paused");
        assertThat(chat.posts(paused.threadId(), paused.messageId(), "question")).as("no prompt").isEmpty();

        // a reply while the agent still waits: the task is read again, and the reply queues behind it
        Sent early = chat.send(paused.threadId(), "are you there?");
        Awaitility.await("the task read again")
                .until(() -> calls("v10", "GetTask").stream().anyMatch(r -> r.receivedAt().isAfter(sends("v10",
                        paused.messageId()).get(0).receivedAt())));
        String task = taskOf("v10", paused.messageId());
        assertThat(chat.userPost(paused.threadId(), early.messageId()).state()).isEqualTo("queued");
        assertThat(chat.userPost(paused.threadId(), paused.messageId()).state()).isEqualTo("paused");

        // the user signs in elsewhere; the agent moves on; the next typed reply finds it done
        Awaitility.await("the agent to move on").until(() -> "completed".equals(stateOnAgent(task)));
        Sent later = chat.send(paused.threadId(), "and now?");
        chat.awaitState(paused, "completed");
        assertThat(chat.answer(paused.threadId(), paused.messageId())).isEqualTo("signed in at last");
        chat.awaitState(early, "completed");
        chat.awaitState(later, "completed");
        RecordedRequest earlySend = single(sends("v10", early.messageId()));
        assertThat(earlySend.taskId()).as("a typed reply is a turn of its own, not an answer").isNull();
        assertThat(single(sends("v10", later.messageId())).receivedAt()).isAfter(earlySend.receivedAt());
    }

    // ================= helpers =================

    private List<RecordedRequest> calls(String agent, String method) {
        return bridge.recorder(agent).rpcRequests().stream().filter(r -> method.equals(r.rpcMethod())).toList();
    }

    private static String taskIdOf(RecordedRequest call) {
        return ChatApi.read(call.body()).path("params").path("id").asText();
    }

    /** The task a turn's send started, as the agent's own history says (ListTasks, by messageId). */
    private String taskOf(String agent, String messageId) {
        String context = sends(agent, messageId).get(0).contextId();
        // a first turn carries no context: find the task by asking the agent for everything recent
        JsonNode tasks = rpc(agent, "ListTasks", context == null ? "{\"historyLength\": 100}"
                : "{\"contextId\": \"" + context + "\", \"historyLength\": 100}").path("result").path("tasks");
        for (JsonNode t : tasks) {
            for (JsonNode m : t.path("history")) {
                if (messageId.equals(m.path("messageId").asText())) {
                    return t.path("id").asText();
                }
            }
        }
        throw new AssertionError("the agent has no task for " + messageId);
    }

    private String stateOnAgent(String taskId) {
        return rpc("v10", "GetTask", "{\"id\": \"" + taskId + "\"}").path("result").path("status").path("state").asText()
                .replace("TASK_STATE_", "").toLowerCase();
    }

    /** A JSON-RPC call of our own to a 1.0-serving agent (the agent records it too, under its method). */
    private JsonNode rpc(String agent, String method, String params) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(bridge.agent(agent).url()))
                    .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"jsonrpc\":\"2.0\",\"id\":\"test\",\"method\":\"" + method + "\",\"params\":" + params + "}"))
                    .build();
            return ChatApi.read(HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static <T> T single(List<T> list) {
        assertThat(list).hasSize(1);
        return list.get(0);
    }
}
