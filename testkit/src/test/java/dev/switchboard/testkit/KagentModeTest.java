package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.ProtocolVersion;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The testkit's kagent-v1 mode over plain HTTP JSON-RPC: the card's hitl/v1 entry, activation by the
 * {@code A2A-Extensions} header (recorded and echoed), every kagent directive's round trip, and the structured
 * answers kagent refuses, which fail the task rather than the call.
 */
class KagentModeTest extends AgentTestSupport {

    private static final String HITL = "https://kagent.dev/extensions/hitl/v1";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectNode NO_PAYLOAD = null;

    private TestAgent kagent;

    @BeforeAll
    void startKagent() {
        kagent = start(TestAgentOptions.kagent("k8s-agent"));
    }

    // --- wire helpers, written by hand from kagent's 1.0 shapes ---

    private static ObjectNode message(String text) {
        ObjectNode message = WireClient.JSON.createObjectNode().put("messageId", "m-" + UUID.randomUUID()).put("role", "ROLE_USER");
        message.putArray("parts").addObject().put("text", text);
        return message;
    }

    /** A structured answer to {@code paused} (a Task): same task and context, extensions and metadata[URI] = payload. */
    private static ObjectNode answer(JsonNode paused, ObjectNode payload, boolean declareExtension) {
        ObjectNode message = message("decision").put("taskId", paused.path("id").asText()).put("contextId", paused.path("contextId").asText());
        if (declareExtension) {
            message.putArray("extensions").add(HITL);
        }
        if (payload != null) {
            message.putObject("metadata").set(HITL, payload);
        }
        return message;
    }

    private static ObjectNode approvals(Object... idApprovedReason) {
        ObjectNode payload = WireClient.JSON.createObjectNode().put("type", "tool_approval_response");
        ArrayNode list = payload.putArray("approvals");
        for (int i = 0; i < idApprovedReason.length; i += 3) {
            ObjectNode approval = list.addObject().put("id", (String) idApprovedReason[i]).put("approved", (Boolean) idApprovedReason[i + 1]);
            if (idApprovedReason[i + 2] != null) {
                approval.put("rejection_reason", (String) idApprovedReason[i + 2]);
            }
        }
        return payload;
    }

    private HttpRequest.Builder request(TestAgent target, String method, ObjectNode message, String extensionsHeader) {
        ObjectNode body = WireClient.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", method);
        body.putObject("params").set("message", message);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target.url())).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (extensionsHeader != null) {
            request.header("A2A-Extensions", extensionsHeader);
        }
        return request;
    }

    private HttpResponse<String> post(TestAgent target, ObjectNode message, String extensionsHeader) {
        return WireClient.send(request(target, "SendMessage", message, extensionsHeader).build());
    }

    /** SendMessage on the kagent agent, opted in; the Task it settles in. */
    private JsonNode send(ObjectNode message) {
        return task(post(kagent, message, HITL));
    }

    private static JsonNode task(HttpResponse<String> response) {
        JsonNode json = WireClient.parse(response.body());
        assertThat(json.has("error")).as("JSON-RPC error: %s", json).isFalse();
        return json.path("result").path("task");
    }

    private List<JsonNode> stream(ObjectNode message) {
        SseCapture capture = SseCapture.open(HTTP, request(kagent, "SendStreamingMessage", message, HITL)
                .header("Accept", "text/event-stream").build());
        capture.awaitEnd();
        assertThat(capture.headers().firstValue("A2A-Extensions")).hasValue(HITL);
        return capture.events().stream().map(e -> e.path("result")).toList();
    }

    private static JsonNode hitl(JsonNode task) {
        return task.path("status").path("message").path("metadata").path(HITL);
    }

    private static String statusText(JsonNode task) {
        return WireClient.partsText(task.path("status").path("message").path("parts"));
    }

    private static List<String> ids(JsonNode tools) {
        return StreamSupport.stream(tools.spliterator(), false).map(t -> t.path("id").asText()).toList();
    }

    /** The data parts of the task's agent status messages in its history, as {@code kagent_type name}. */
    private static List<String> stepCards(JsonNode task, String prefix) {
        List<String> cards = new ArrayList<>();
        for (JsonNode message : task.path("history")) {
            for (JsonNode part : message.path("parts")) {
                if (part.has("data")) {
                    cards.add(part.path("metadata").path(prefix + "type").asText() + " " + part.path("data").path("name").asText());
                }
            }
        }
        return cards;
    }

    // --- card, versions, activation ---

    @Test
    void cardListsTheHitlExtensionNotRequiredAndServesOnlyOnePointZero() {
        HttpResponse<String> card = WireClient.send(HttpRequest.newBuilder(URI.create(kagent.cardUrl())).header("A2A-Version", "1.0").build());
        JsonNode extensions = WireClient.parse(card.body()).path("capabilities").path("extensions");

        assertThat(extensions).hasSize(1);
        assertThat(extensions.get(0)).isEqualTo(KagentVectors.json("card_extension.json"));
        JsonNode legacy = new WireClient(kagent.url(), ProtocolVersion.V0_3).call("message/send",
                WireClient.params(new WireClient(kagent.url(), ProtocolVersion.V0_3).message("hi")));
        assertThat(legacy.path("error").path("code").asInt()).isEqualTo(-32009);
    }

    @Test
    void theExtensionHeaderIsRecordedAndEchoedOnlyWhenTheCardListsTheExactUri() {
        HttpResponse<String> optedIn = post(kagent, message("hi"), "urn:other, " + HITL);
        assertThat(optedIn.headers().firstValue("A2A-Extensions")).hasValue(HITL);
        assertThat(kagent.recorder().lastRequest().requestedExtensions()).containsExactly("urn:other", HITL);

        HttpResponse<String> plain = post(kagent, message("hi"), null);
        assertThat(plain.headers().firstValue("A2A-Extensions")).isEmpty();
        assertThat(kagent.recorder().lastRequest().requestedExtensions()).isEmpty();

        HttpResponse<String> v2 = post(kagent, message("hi"), "https://kagent.dev/extensions/hitl/v2");
        assertThat(v2.headers().firstValue("A2A-Extensions")).isEmpty();

        HttpResponse<String> notListed = post(agent, message("hi"), HITL);
        assertThat(notListed.headers().firstValue("A2A-Extensions")).isEmpty();
        assertThat(agent.recorder().lastRequest().requestedExtensions()).containsExactly(HITL);
    }

    // --- /approve family ---

    @Test
    void approvePausesWithTheToolApprovalRequestAndAnApprovalRunsTheTool() {
        JsonNode paused = send(message("/approve delete_pod {\"name\":\"web-1\"}"));

        assertThat(WireClient.state(paused).name()).isEqualTo("INPUT_REQUIRED");
        JsonNode status = paused.path("status").path("message");
        assertThat(status.path("extensions")).containsExactly(WireClient.JSON.getNodeFactory().textNode(HITL));
        assertThat(statusText(paused)).isEqualTo("Approval required for delete_pod");
        JsonNode request = hitl(paused);
        assertThat(request.path("type").asText()).isEqualTo("tool_approval_request");
        assertThat(request.path("hint").asText()).isEqualTo("Approval required for delete_pod");
        JsonNode tool = request.path("tools").get(0);
        assertThat(tool.path("name").asText()).isEqualTo("delete_pod");
        assertThat(tool.path("args")).isEqualTo(WireClient.parse("{\"name\":\"web-1\"}"));
        assertThat(tool.path("id").asText()).isNotBlank().isNotEqualTo(tool.path("call_id").asText());

        JsonNode done = send(answer(paused, approvals(tool.path("id").asText(), true, null), true));

        assertThat(done.path("id").asText()).isEqualTo(paused.path("id").asText());
        assertThat(WireClient.state(done).name()).isEqualTo("COMPLETED");
        assertThat(WireClient.artifactText(done)).isEqualTo("approved delete_pod: done");
        assertThat(stepCards(done, "kagent_")).containsExactly("function_call delete_pod", "function_response delete_pod");
    }

    @Test
    void anApprovalStreamsTheStepCardsThenTheArtifactThenCompleted() {
        JsonNode paused = send(message("/approve scale_deployment"));
        String id = hitl(paused).path("tools").get(0).path("id").asText();
        String callId = hitl(paused).path("tools").get(0).path("call_id").asText();

        List<JsonNode> events = stream(answer(paused, approvals(id, true, null), true));

        List<JsonNode> cards = events.stream().filter(e -> e.has("statusUpdate"))
                .flatMap(e -> StreamSupport.stream(e.at("/statusUpdate/status/message/parts").spliterator(), false))
                .filter(p -> p.has("data")).toList();
        assertThat(cards).extracting(p -> p.path("metadata").path("kagent_type").asText()).containsExactly("function_call", "function_response");
        assertThat(cards).extracting(p -> p.path("data").path("id").asText()).containsOnly(callId);
        assertThat(cards.get(0).path("data").path("args").isObject()).isTrue();
        assertThat(cards.get(1).path("data").path("response")).isEqualTo(WireClient.parse("{\"result\":\"done\",\"isError\":false}"));
        assertThat(events.get(events.size() - 1).at("/statusUpdate/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }

    @Test
    void aRejectionWithAReasonEndsWithoutRunningTheTool() {
        JsonNode paused = send(message("/approve delete_pod"));
        String id = hitl(paused).path("tools").get(0).path("id").asText();

        JsonNode done = send(answer(paused, approvals(id, false, "too risky"), true));

        assertThat(WireClient.state(done).name()).isEqualTo("COMPLETED");
        assertThat(WireClient.artifactText(done)).isEqualTo("rejected delete_pod: too risky");
        assertThat(stepCards(done, "kagent_")).isEmpty();
    }

    @Test
    void withoutOptInTheClientGetsKagentsReadableTextOnlyAndAPlainAnswerIsTaken() {
        JsonNode paused = task(post(kagent, message("/approve delete_pod"), null));

        assertThat(WireClient.state(paused).name()).isEqualTo("INPUT_REQUIRED");
        assertThat(statusText(paused)).isEqualTo("Human input is required before the agent can continue.");
        assertThat(paused.path("status").path("message").has("extensions")).isFalse();
        assertThat(paused.path("status").path("message").has("metadata")).isFalse();

        ObjectNode reply = message("yes please").put("taskId", paused.path("id").asText());
        JsonNode done = task(post(kagent, reply, null));
        assertThat(WireClient.state(done).name()).isEqualTo("COMPLETED");
        assertThat(WireClient.artifactText(done)).isEqualTo("yes please");
    }

    @Test
    void approveManyListsTwoToolsDecidedIndependently() {
        JsonNode paused = send(message("/approvemany"));
        JsonNode tools = hitl(paused).path("tools");
        assertThat(tools).extracting(t -> t.path("name").asText()).containsExactly("delete_file", "restart_deployment");

        JsonNode done = send(answer(paused, approvals(tools.get(0).path("id").asText(), false, "still used",
                tools.get(1).path("id").asText(), true, null), true));

        assertThat(WireClient.artifactText(done)).isEqualTo("rejected delete_file: still used\napproved restart_deployment: done");
        assertThat(stepCards(done, "kagent_")).containsExactly("function_call restart_deployment", "function_response restart_deployment");
    }

    @Test
    void approveNestedIsAnsweredWithTheNestedToolsIds() {
        JsonNode paused = send(message("/approvenested"));
        JsonNode request = hitl(paused);
        assertThat(request.path("tools")).extracting(t -> t.path("name").asText()).containsExactly("k8s_agent");
        JsonNode nested = request.path("nested");
        assertThat(nested.path("subagent_name").asText()).isEqualTo("k8s_agent");
        assertThat(nested.path("task_id").asText()).isNotBlank();
        assertThat(nested.path("context_id").asText()).isNotBlank();
        assertThat(nested.path("tools")).extracting(t -> t.path("name").asText()).containsExactly("delete_pod");

        JsonNode done = send(answer(paused, approvals(ids(nested.path("tools")).get(0), true, null), true));

        assertThat(WireClient.state(done).name()).isEqualTo("COMPLETED");
        assertThat(WireClient.artifactText(done)).isEqualTo("approved delete_pod: done");
    }

    @Test
    void answeringANestedRequestWithTheParentIdFailsTheTask() {
        JsonNode paused = send(message("/approvenested"));
        String parent = ids(hitl(paused).path("tools")).get(0);
        String child = ids(hitl(paused).path("nested").path("tools")).get(0);

        JsonNode failed = send(answer(paused, approvals(parent, true, null), true));

        assertThat(WireClient.state(failed).name()).isEqualTo("FAILED");
        assertThat(statusText(failed)).isEqualTo("Tool approval response is missing ids: " + child);
    }

    // --- /askuser ---

    @Test
    void askUserAsksTwoQuestionsAndCompletesWithThePositionalAnswers() {
        JsonNode paused = send(message("/askuser"));
        JsonNode request = hitl(paused);
        assertThat(request.path("type").asText()).isEqualTo("ask_user_request");
        assertThat(request.path("questions")).extracting(q -> q.path("multiple").asBoolean()).containsExactly(false, true);
        assertThat(request.path("questions")).allSatisfy(q -> assertThat(q.path("choices").size()).isGreaterThan(1));
        assertThat(statusText(paused)).contains(request.at("/questions/0/question").asText());

        ObjectNode payload = WireClient.JSON.createObjectNode().put("type", "ask_user_response").put("id", request.path("id").asText());
        ArrayNode answers = payload.putArray("answers");
        answers.addObject().putArray("answer").add("staging");
        answers.addObject().putArray("answer").add("lint").add("e2e");
        JsonNode done = send(answer(paused, payload, true));

        assertThat(WireClient.state(done).name()).isEqualTo("COMPLETED");
        assertThat(WireClient.artifactText(done)).isEqualTo(
                request.at("/questions/0/question").asText() + " staging\n" + request.at("/questions/1/question").asText() + " lint, e2e");
    }

    @Test
    void askUserRefusesAWrongIdOrAWrongNumberOfAnswers() {
        JsonNode paused = send(message("/askuser"));
        ObjectNode wrongId = WireClient.JSON.createObjectNode().put("type", "ask_user_response").put("id", "nope");
        wrongId.putArray("answers").addObject().putArray("answer").add("dev");
        assertThat(statusText(send(answer(paused, wrongId, true)))).isEqualTo("ask_user response has invalid correlation");

        JsonNode again = send(message("/askuser"));
        ObjectNode tooFew = WireClient.JSON.createObjectNode().put("type", "ask_user_response").put("id", hitl(again).path("id").asText());
        tooFew.putArray("answers").addObject().putArray("answer").add("dev");
        JsonNode failed = send(answer(again, tooFew, true));
        assertThat(WireClient.state(failed).name()).isEqualTo("FAILED");
        assertThat(statusText(failed)).isEqualTo("ask_user response must answer every question");
    }

    // --- structured-answer validation: kagent fails the task, the call itself succeeds ---

    @Test
    void anAnswerMissingAnIdFailsTheTask() {
        JsonNode paused = send(message("/approvemany"));
        List<String> ids = ids(hitl(paused).path("tools"));

        JsonNode failed = send(answer(paused, approvals(ids.get(0), true, null), true));

        assertThat(WireClient.state(failed).name()).isEqualTo("FAILED");
        assertThat(statusText(failed)).isEqualTo("Tool approval response is missing ids: " + ids.get(1));
        assertThat(WireClient.artifactText(failed)).isEmpty();
    }

    @Test
    void anAnswerWithAnUnknownOrDuplicateIdFailsTheTask() {
        JsonNode paused = send(message("/approve delete_pod"));
        String id = ids(hitl(paused).path("tools")).get(0);
        JsonNode failed = send(answer(paused, approvals(id, true, null, "forged", true, null), true));
        assertThat(statusText(failed)).isEqualTo("Tool approval response contains unknown ids: forged");

        JsonNode again = send(message("/approve delete_pod"));
        String other = ids(hitl(again).path("tools")).get(0);
        JsonNode twice = send(answer(again, approvals(other, true, null, other, false, null), true));
        assertThat(statusText(twice)).isEqualTo("Tool approval response contains duplicate ids");
    }

    @Test
    void anAnswerWithoutTheExtensionOrItsPayloadOrTheHeaderFailsTheTask() {
        JsonNode paused = send(message("/approve delete_pod"));
        String id = ids(hitl(paused).path("tools")).get(0);
        JsonNode undeclared = send(answer(paused, approvals(id, true, null), false));
        assertThat(WireClient.state(undeclared).name()).isEqualTo("FAILED");
        assertThat(statusText(undeclared)).startsWith("message does not contain a HITL response").contains("extensions");

        JsonNode plain = send(message("/approve delete_pod"));
        JsonNode text = send(answer(plain, NO_PAYLOAD, true));
        assertThat(statusText(text)).startsWith("message does not contain a HITL response").contains("metadata");

        JsonNode noHeader = send(message("/approve delete_pod"));
        String noHeaderId = ids(hitl(noHeader).path("tools")).get(0);
        JsonNode failed = task(post(kagent, answer(noHeader, approvals(noHeaderId, true, null), true), null));
        assertThat(statusText(failed)).startsWith("message does not contain a HITL response").contains("A2A-Extensions");
    }

    @Test
    void anAnswerOfTheWrongTypeOrShapeFailsTheTask() {
        JsonNode paused = send(message("/approve delete_pod"));
        ObjectNode askAnswer = WireClient.JSON.createObjectNode().put("type", "ask_user_response").put("id", "x");
        assertThat(statusText(send(answer(paused, askAnswer, true)))).isEqualTo("Tool approval request requires a tool approval response");

        JsonNode again = send(message("/approve delete_pod"));
        ObjectNode noDecision = approvals(ids(hitl(again).path("tools")).get(0), true, null);
        ((ObjectNode) noDecision.path("approvals").get(0)).remove("approved");
        assertThat(statusText(send(answer(again, noDecision, true)))).isEqualTo("Tool approval request requires a tool approval response");
    }

    @Test
    void aSecondAnswerToADecidedTaskIsRefusedByTheCall() {
        JsonNode paused = send(message("/approve delete_pod"));
        String id = ids(hitl(paused).path("tools")).get(0);
        send(answer(paused, approvals(id, true, null), true));

        JsonNode stale = WireClient.parse(post(kagent, answer(paused, approvals(id, true, null), true), HITL).body());

        assertThat(stale.path("error").path("code").asInt()).isEqualTo(-32004);
    }

    // --- /steps and /kfail ---

    @Test
    void stepsStreamsATextPartWithAToolCallThenItsResultThenTheAnswer() {
        List<JsonNode> events = stream(message("/steps\nthree pods are running"));

        List<JsonNode> messages = events.stream().filter(e -> e.has("statusUpdate"))
                .map(e -> e.at("/statusUpdate/status/message")).filter(m -> !m.isMissingNode()).toList();
        assertThat(messages).hasSize(2);
        JsonNode call = messages.get(0).path("parts");
        assertThat(call.get(0).path("text").asText()).isNotBlank();
        assertThat(call.get(1).path("metadata").path("kagent_type").asText()).isEqualTo("function_call");
        assertThat(call.get(1).path("data").fieldNames()).toIterable().containsExactly("id", "name", "args");
        JsonNode result = messages.get(1).path("parts").get(0);
        assertThat(result.path("metadata").path("kagent_type").asText()).isEqualTo("function_response");
        assertThat(result.path("data").path("id").asText()).isEqualTo(call.get(1).path("data").path("id").asText());
        assertThat(result.path("data").path("response").path("isError").isBoolean()).isTrue();
        assertThat(events.stream().filter(e -> e.has("artifactUpdate")))
                .extracting(e -> WireClient.partsText(e.at("/artifactUpdate/artifact/parts"))).containsExactly("three pods are running");
        assertThat(events.get(events.size() - 1).at("/statusUpdate/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }

    @Test
    void stepsAdkUsesTheUpstreamPrefix() {
        JsonNode done = send(message("/steps adk\nok"));
        assertThat(stepCards(done, "adk_")).containsExactly("function_call get_pods", "function_response get_pods");
        assertThat(stepCards(done, "kagent_")).allSatisfy(card -> assertThat(card).startsWith(" "));
    }

    @Test
    void kfailFailsWithKagentsErrorCodeInTheStatusMessage() {
        JsonNode failed = send(message("/kfail MAX_TOKENS"));

        assertThat(WireClient.state(failed).name()).isEqualTo("FAILED");
        JsonNode status = failed.path("status").path("message");
        assertThat(status.path("metadata")).isEqualTo(WireClient.parse("{\"kagent_error_code\":\"MAX_TOKENS\"}"));
        assertThat(WireClient.partsText(status.path("parts"))).startsWith("Response was truncated");
        assertThat(statusText(send(message("/kfail SPII")))).isEqualTo("An error occurred during processing");
    }

    // --- directives ---

    @Test
    void kagentDirectivesParseAndPrintBack() {
        for (String directive : List.of("/approve delete_pod", "/approve delete_pod {\"name\":\"web-1\"}", "/approvemany",
                "/approvenested", "/askuser", "/steps", "/steps adk", "/kfail MAX_TOKENS")) {
            assertThat(Behavior.parse(directive).directive()).isEqualTo(directive);
        }
        assertThat(Behavior.parse("/approve")).isEqualTo(new Behavior.Approve("delete_pod", null));
        assertThat(Behavior.parse("/kfail")).isEqualTo(new Behavior.KagentFail("MAX_TOKENS"));
        assertThatThrownBy(() -> Behavior.parse("/approve delete_pod [1]")).hasMessageContaining("JSON object");
        assertThatThrownBy(() -> Behavior.parse("/steps twice")).isInstanceOf(IllegalArgumentException.class);
    }
}
