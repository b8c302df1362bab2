package dev.switchboard.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The A2A 1.0 specification's MUST clauses on push notification configs, webhook delivery and SubscribeToTask, each
 * as one test of the gateway in front of an agent (docs/push.md lists them and the clauses left out). Section
 * numbers are those of a2aproject/A2A {@code docs/specification.md}. The push agent is a bare upstream that takes
 * configs as agents do (the test plays its side of the webhook); the streaming agents are testkit agents. Two API
 * keys make two callers.
 */
@ServerTest
class PushAndResubscribeMustClausesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALICE = "Bearer alice-key-0123456789abcdef";
    private static final String BOB = "Bearer bob-key-0123456789abcdefgh";

    record Delivered(String path, String body, String token, String authorization, String contentType) {}

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent pusher;
    static HttpServer receiver;
    static final List<Delivered> delivered = new CopyOnWriteArrayList<>();
    static final AtomicInteger flakyRefusals = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        h = new Harness(dir);
        pusher = h.raw((request, body, exchange) -> {
            JsonNode call = tree(body.toString());
            ObjectNode reply = JSON.createObjectNode().put("jsonrpc", "2.0");
            reply.set("id", call.get("id"));
            String method = call.path("method").asText();
            if (method.startsWith("Create") || method.endsWith("/set")) {
                reply.set("result", call.get("params"));
            } else {
                reply.putNull("result");
            }
            exchange.reply(reply.toString());
        });
        RawAgent pushless = h.raw((request, body, exchange) -> exchange.reply("{\"jsonrpc\":\"2.0\",\"id\":"
                + tree(body.toString()).get("id") + ",\"error\":{\"code\":-32003,"
                + "\"message\":\"push notifications are not supported\"}}"));
        TestAgent streamer = h.agent(TestAgentOptions.echo("streamer"));
        TestAgent still = h.agent(TestAgentOptions.echo("still").withStreaming(false));
        h.apiKey("alice", ALICE.substring(7)).apiKey("bob", BOB.substring(7))
                .backend("pusher", pusher.url()).backend("pushless", pushless.url())
                .backend("streamer", streamer.url()).backend("still", still.url()).start();
        receiver = h.vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            if (req.path().equals("/flaky") && flakyRefusals.getAndIncrement() == 0) {
                req.response().setStatusCode(503).end();
                return;
            }
            delivered.add(new Delivered(req.path(), b.toString(), req.getHeader("X-A2A-Notification-Token"),
                    req.getHeader("Authorization"), req.getHeader("Content-Type")));
            req.response().end();
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @BeforeEach
    void clear() {
        pusher.clear();
        delivered.clear();
    }

    // ---- push notification configs ----

    @Test
    void pushConfigCreateMustReturnTheCreatedConfigWithAnAssignedId() throws Exception {
        // §3.1.7 Outputs: "Created configuration with assigned ID"
        JsonNode created = rpc("pusher", ALICE, create("t-create", null, hook("/a"), "tok"));
        String id = created.path("result").path("id").asText();
        assertThat(id).as(created.toString()).isNotBlank();
        assertThat(created.path("result").path("url").asText()).isEqualTo(hook("/a"));
        assertThat(rpc("pusher", ALICE, get("t-create", id)).path("result").path("id").asText()).isEqualTo(id);
    }

    @Test
    void pushConfigMustPersistUntilTaskCompletionOrExplicitDeletion() throws Exception {
        // §3.1.7: "The configuration MUST persist until task completion or explicit deletion."
        rpc("pusher", ALICE, create("t-persist", "cfg", hook("/a"), "tok"));
        JsonNode given = agentsConfig();
        assertThat(callback(given, status("t-persist", "TASK_STATE_WORKING")).status()).isEqualTo(200);
        assertThat(callback(given, status("t-persist", "TASK_STATE_WORKING").replace("WORKING", "INPUT_REQUIRED"))
                .status()).isEqualTo(200);
        await().until(() -> delivered.size() == 2);
        assertThat(rpc("pusher", ALICE, get("t-persist", "cfg")).path("result").path("url").asText())
                .isEqualTo(hook("/a"));
        assertThat(callback(given, status("t-persist", "TASK_STATE_COMPLETED")).status()).isEqualTo(200);
        await().until(() -> delivered.size() == 3);
    }

    @Test
    void pushConfigGetMustReturnTheWebhookUrlAndNotificationSettings() throws Exception {
        // §3.1.8: "The operation MUST return configuration details including webhook URL and notification settings."
        rpc("pusher", ALICE, create("t-get", "cfg", hook("/a"), "tok-get"));
        JsonNode got = rpc("pusher", ALICE, get("t-get", "cfg")).path("result");
        assertThat(got.path("url").asText()).as(got.toString()).isEqualTo(hook("/a"));
        assertThat(got.path("token").asText()).isEqualTo("tok-get");
        assertThat(got.path("taskId").asText()).isEqualTo("t-get");
        assertThat(got.path("authentication").path("scheme").asText()).isEqualTo("Bearer");
        assertThat(got.path("authentication").path("credentials").asText()).isEqualTo("abc");
    }

    @Test
    void pushConfigGetMustFailIfTheConfigDoesNotExistOrTheClientLacksAccess() throws Exception {
        // §3.1.8: "The operation MUST fail if the configuration does not exist or the client lacks access."
        rpc("pusher", ALICE, create("t-absent", "cfg", hook("/a"), "tok"));
        JsonNode missing = rpc("pusher", ALICE, get("t-absent", "no-such-cfg"));
        assertThat(missing.has("result")).isFalse();
        assertThat(missing.path("error").path("message").asText()).contains("no push config 'no-such-cfg'");
        JsonNode others = rpc("pusher", BOB, get("t-absent", "cfg"));
        assertThat(others.has("result")).isFalse();
        assertThat(others.path("error").path("message").asText()).contains("no push config 'cfg'");
    }

    @Test
    void pushConfigListMustReturnAllActiveConfigsOfTheTask() throws Exception {
        // §3.1.9: "The operation MUST return all active push notification configurations for the specified task"
        rpc("pusher", ALICE, create("t-list", "one", hook("/a"), "tok"));
        rpc("pusher", ALICE, create("t-list", "two", hook("/b"), "tok"));
        rpc("pusher", ALICE, create("t-list", "three", hook("/c"), "tok"));
        rpc("pusher", ALICE, delete("t-list", "two"));
        JsonNode listed = rpc("pusher", ALICE, list("t-list")).path("result");
        List<String> ids = new ArrayList<>();
        listed.path("configs").forEach(c -> ids.add(c.path("id").asText()));
        assertThat(ids).as(listed.toString()).containsExactlyInAnyOrder("one", "three");
        assertThat(listed.path("nextPageToken").isTextual()).isTrue();
    }

    @Test
    void pushConfigDeleteMustPermanentlyRemoveTheConfigSoNoFurtherNotificationsAreSent() throws Exception {
        // §3.1.10: "MUST permanently remove the specified push notification configuration. No further notifications…"
        rpc("pusher", ALICE, create("t-del", "cfg", hook("/a"), "tok"));
        JsonNode given = agentsConfig();
        assertThat(rpc("pusher", ALICE, delete("t-del", "cfg")).has("error")).isFalse();
        assertThat(rpc("pusher", ALICE, get("t-del", "cfg")).has("result")).isFalse();
        assertThat(callback(given, status("t-del", "TASK_STATE_COMPLETED")).status()).isEqualTo(401);
        // a later config of the same task is delivered: nothing of the deleted one reaches its webhook meanwhile
        rpc("pusher", ALICE, create("t-del", "cfg-2", hook("/b"), "tok"));
        assertThat(callback(agentsConfig(), status("t-del", "TASK_STATE_COMPLETED")).status()).isEqualTo(200);
        await().until(() -> !delivered.isEmpty());
        assertThat(delivered).extracting(Delivered::path).containsExactly("/b");
    }

    @Test
    void pushConfigDeleteMustBeIdempotent() throws Exception {
        // §3.1.10: "This operation MUST be idempotent - multiple deletions of the same config have the same effect."
        rpc("pusher", ALICE, create("t-idem", "cfg", hook("/a"), "tok"));
        JsonNode first = rpc("pusher", ALICE, delete("t-idem", "cfg"));
        JsonNode second = rpc("pusher", ALICE, delete("t-idem", "cfg"));
        assertThat(first.has("error")).as(first.toString()).isFalse();
        assertThat(second.path("result")).as(second.toString()).isEqualTo(first.path("result"));
        assertThat(rpc("pusher", ALICE, list("t-idem")).path("result").path("configs")).isEmpty();
    }

    @Test
    void pushConfigOperationsMustVerifyTheClientsAccessRights() throws Exception {
        // §13.1: "Task-related operations (Cancel, Subscribe, Push Notification Config): MUST verify the client has
        // appropriate access rights"
        rpc("pusher", ALICE, create("t-mine", "cfg", hook("/a"), "tok"));
        JsonNode given = agentsConfig();
        // Bob has no config of the task: the agent is asked too, for a "not supported" alone; what it lists is not shown
        assertThat(rpc("pusher", BOB, list("t-mine")).path("result").path("configs")).isEmpty();
        pusher.clear();
        JsonNode deleted = rpc("pusher", BOB, delete("t-mine", "cfg"));
        assertThat(deleted.path("error").path("code").asInt()).as(deleted.toString()).isEqualTo(-32001);
        assertThat(pusher.exchanges()).as("the agent is not asked to delete another caller's config").isEmpty();
        assertThat(rpc("pusher", ALICE, get("t-mine", "cfg")).path("result").path("id").asText()).isEqualTo("cfg");
        assertThat(callback(given, status("t-mine", "TASK_STATE_WORKING")).status()).isEqualTo(200);
        await().until(() -> !delivered.isEmpty());
    }

    @Test
    void pushConfigCreateAndDeleteOnAnAgentWithoutPushMustReturnPushNotificationNotSupported() throws Exception {
        // §3.3.4: "operations related to push notification configuration (Create, Get, List, Delete) MUST return
        // PushNotificationNotSupportedError"
        assertThat(rpc("pushless", ALICE, create("t-no", "cfg", hook("/a"), "tok")).path("error").path("code").asInt())
                .isEqualTo(-32003);
        assertThat(rpc("pushless", ALICE, delete("t-no", "cfg")).path("error").path("code").asInt()).isEqualTo(-32003);
    }

    @Test
    void pushConfigGetAndListOnAnAgentWithoutPushMustReturnPushNotificationNotSupported() throws Exception {
        // §3.3.4: "operations related to push notification configuration (Create, Get, List, Delete) MUST return
        // PushNotificationNotSupportedError"
        assertThat(rpc("pushless", ALICE, get("t-no", "cfg")).path("error").path("code").asInt()).isEqualTo(-32003);
        assertThat(rpc("pushless", ALICE, list("t-no")).path("error").path("code").asInt()).isEqualTo(-32003);
    }

    // ---- webhook delivery: the gateway delivering to the caller ----

    @ParameterizedTest(name = "A2A {0}")
    @ValueSource(strings = {"1.0", "0.3"})
    void pushDeliveryMustIncludeTheConfigsAuthenticationCredentials(String mode) throws Exception {
        // §4.3.3 and §13.2: "The agent MUST include authentication credentials in the request headers as specified
        // in the PushNotificationConfig.authentication field."
        String task = "t-auth-" + mode;
        String call = mode.equals("1.0") ? create(task, "cfg", hook("/a"), "tok-" + mode)
                : "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/pushNotificationConfig/set\",\"params\":{\"taskId\":\""
                        + task + "\",\"pushNotificationConfig\":{\"id\":\"cfg\",\"url\":\"" + hook("/a") + "\",\"token\":"
                        + "\"tok-0.3\",\"authentication\":{\"schemes\":[\"Basic\"],\"credentials\":\"dTpw\"}}}}";
        rpc("pusher", ALICE, call);
        JsonNode given = mode.equals("1.0") ? agentsConfig() : agentsConfig().path("pushNotificationConfig");
        assertThat(given.has("authentication")).as("the caller's credentials stay with the gateway").isFalse();
        assertThat(callback(given, status(task, "TASK_STATE_COMPLETED")).status()).isEqualTo(200);
        await().until(() -> !delivered.isEmpty());
        assertThat(delivered.get(0).authorization()).isEqualTo(mode.equals("1.0") ? "Bearer abc" : "Basic dTpw");
        assertThat(delivered.get(0).token()).isEqualTo("tok-" + mode);
        // §4.3.3: the payload is the agent's StreamResponse, passed on as it came
        assertThat(delivered.get(0).body()).isEqualTo(status(task, "TASK_STATE_COMPLETED"));
        assertThat(delivered.get(0).contentType()).isEqualTo("application/a2a+json");
    }

    @Test
    void pushDeliveryMustBeAttemptedAtLeastOnceForEachConfiguredWebhook() throws Exception {
        // §4.3.3 Server Guarantees: "Agents MUST attempt delivery at least once for each configured webhook"
        rpc("pusher", ALICE, create("t-each", "steady", hook("/a"), "tok"));
        JsonNode steady = agentsConfig();
        rpc("pusher", ALICE, create("t-each", "flaky", hook("/flaky"), "tok"));
        JsonNode flaky = agentsConfig();
        flakyRefusals.set(0);
        String done = status("t-each", "TASK_STATE_COMPLETED");
        assertThat(callback(steady, done).status()).isEqualTo(200);
        assertThat(callback(flaky, done).status()).isEqualTo(200);
        // the flaky webhook refuses its first attempt (503): it is tried again
        await().until(() -> delivered.size() == 2);
        assertThat(delivered).extracting(Delivered::path).containsExactlyInAnyOrder("/a", "/flaky");
        assertThat(delivered).extracting(Delivered::body).containsOnly(done);
        assertThat(flakyRefusals.get()).isEqualTo(2);
    }

    // ---- webhook receipt: the gateway as the receiver of the agent's notifications ----

    @Test
    void pushReceiverMustAcknowledgeSuccessfulReceiptWith2xx() throws Exception {
        // §4.3.3 Client Responsibilities: "Clients MUST respond with HTTP 2xx status codes to acknowledge receipt"
        rpc("pusher", ALICE, create("t-ack", "cfg", hook("/a"), "tok"));
        Reply ack = callback(agentsConfig(), status("t-ack", "TASK_STATE_WORKING"));
        assertThat(ack.status()).isBetween(200, 299);
        await().until(() -> !delivered.isEmpty());
    }

    @Test
    void pushReceiverMustValidateWebhookAuthenticityWithTheProvidedCredentials() throws Exception {
        // §13.2: "Clients MUST validate webhook authenticity using the provided authentication credentials"
        rpc("pusher", ALICE, create("t-forged", "cfg", hook("/a"), "tok"));
        JsonNode given = agentsConfig();
        ObjectNode forged = given.<ObjectNode>deepCopy().put("token", "not-the-secret");
        assertThat(callback(forged, status("t-forged", "TASK_STATE_FAILED")).status()).isEqualTo(401);
        assertThat(callback(given.<ObjectNode>deepCopy().put("token", ""), status("t-forged", "TASK_STATE_FAILED")).status())
                .isEqualTo(401);
        assertThat(callback(given, status("t-forged", "TASK_STATE_COMPLETED")).status()).isEqualTo(200);
        await().until(() -> !delivered.isEmpty());
        assertThat(delivered).extracting(Delivered::body).containsExactly(status("t-forged", "TASK_STATE_COMPLETED"));
    }

    @Test
    void pushReceiverMustValidateThatTheTaskIdMatchesAnExpectedTask() throws Exception {
        // §4.3.3 Client Responsibilities: "Clients MUST validate the task ID matches an expected task"
        rpc("pusher", ALICE, create("t-expected", "cfg", hook("/a"), "tok"));
        JsonNode given = agentsConfig();
        Reply other = callback(given, status("t-someone-elses", "TASK_STATE_COMPLETED"));
        assertThat(other.status()).isEqualTo(400);
        assertThat(other.text()).contains("another task");
        String bare03 = "{\"kind\":\"task\",\"id\":\"t-someone-elses\",\"contextId\":\"c\",\"status\":{\"state\":\"completed\"}}";
        assertThat(callback(given, bare03).status()).isEqualTo(400);
        String mine = status("t-expected", "TASK_STATE_COMPLETED");
        assertThat(callback(given, mine).status()).isEqualTo(200);
        await().until(() -> !delivered.isEmpty());
        assertThat(delivered).extracting(Delivered::body).containsExactly(mine);
    }

    // ---- SubscribeToTask / tasks/resubscribe ----

    @ParameterizedTest(name = "A2A {0}")
    @ValueSource(strings = {"1.0", "0.3"})
    void subscribeToTaskFirstEventMustBeTheCurrentTask(String mode) {
        // §3.1.6: "The operation MUST return a Task object as the first event in the stream"
        SseCall send = h.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 20 100\nlong"), "Authorization", ALICE);
        await().until(() -> send.events().size() >= 3);
        String task = send.events().get(0).path("result").path("id").asText();
        SseCall sub = subscribe(mode, task);
        await().until(() -> !sub.events().isEmpty());
        JsonNode first = sub.events().get(0).path("result");
        JsonNode taskObject = mode.equals("1.0") ? first.path("task") : first;
        if (mode.equals("0.3")) {
            assertThat(first.path("kind").asText()).as(first.toString()).isEqualTo("task");
        }
        assertThat(taskObject.path("id").asText()).as(first.toString()).isEqualTo(task);
        assertThat(taskObject.path("status").path("state").asText()).as("the task as it is now, not as it began")
                .isIn("TASK_STATE_WORKING", "working");
        sub.disconnect();
        send.awaitEnd();
    }

    @Test
    void subscribeToTaskStreamMustTerminateWhenTheTaskReachesATerminalState() {
        // §3.1.6: "The stream MUST terminate when the task reaches a terminal state"
        SseCall send = h.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 10 100\nto the end"),
                "Authorization", ALICE);
        await().until(() -> send.events().size() >= 2);
        SseCall sub = subscribe("0.3", send.events().get(0).path("result").path("id").asText());
        sub.awaitEnd();
        assertThat(sub.endedNormally()).isTrue();
        List<JsonNode> events = sub.events();
        assertThat(events.get(events.size() - 1).path("result").path("status").path("state").asText())
                .isEqualTo("completed");
    }

    @Test
    void subscribeToTaskOnATaskInATerminalStateMustFailWithUnsupportedOperation() throws Exception {
        // §3.1.6 Errors and §9.4.6: "Returns UnsupportedOperationError if the task is in a terminal state"
        SseCall send = h.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 2 10\nshort"), "Authorization", ALICE);
        send.awaitEnd();
        String task = send.events().get(0).path("result").path("id").asText();
        Reply late = h.http().post("/a2a/streamer", subscribeCall("0.3", task), "Authorization", ALICE);
        assertThat(errorCodeIn(late.text())).as(late.text()).isEqualTo(-32004);
    }

    @Test
    void subscribeToTaskOnAnAgentThatDoesNotStreamMustReturnUnsupportedOperation() throws Exception {
        // §3.3.4: "If AgentCard.capabilities.streaming is false … SubscribeToTask … MUST return UnsupportedOperationError"
        Reply sent = h.http().rpc("still", Rpc.send(1, "hello"), "Authorization", ALICE);
        String task = sent.json().path("result").path("id").asText("t-any");
        Reply sub = h.http().post("/a2a/still", subscribeCall("1.0", task), "Authorization", ALICE, "A2A-Version", "1.0");
        assertThat(errorCodeIn(sub.text())).as(sub.text()).isEqualTo(-32004);
    }

    @Test
    void everyStreamOfATaskMustReceiveTheSameEventsInOrderAndClosingOneMustNotAffectTheOthers() {
        // §3.5.2: "Events MUST be broadcast to all active streams … Each stream MUST receive the same events in the
        // same order … Closing one stream MUST NOT affect other active streams for the same task"
        SseCall send = h.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 12 150\nshared"), "Authorization", ALICE);
        await().until(() -> send.events().size() >= 2);
        String task = send.events().get(0).path("result").path("id").asText();
        SseCall dropped = subscribe("0.3", task);
        SseCall kept = subscribe("0.3", task);
        await().until(() -> dropped.events().size() >= 2 && kept.events().size() >= 2);
        dropped.disconnect();
        kept.awaitEnd();
        send.awaitEnd();
        List<JsonNode> sent = results(send.events()).subList(1, send.events().size());
        List<JsonNode> followed = results(kept.events()).subList(1, kept.events().size());
        assertThat(followed).isNotEmpty();
        assertThat(Collections.indexOfSubList(sent, followed)).as("the subscriber's events are the sender's, in order")
                .isEqualTo(sent.size() - followed.size());
        assertThat(followed.get(followed.size() - 1).path("status").path("state").asText()).isEqualTo("completed");
    }

    // ---- helpers ----

    static String hook(String path) {
        return "http://127.0.0.1:" + receiver.actualPort() + path;
    }

    static JsonNode rpc(String agent, String caller, String body) throws Exception {
        Reply r = body.contains("\"tasks/") ? h.http().rpc(agent, body, "Authorization", caller)
                : h.http().rpc(agent, body, "Authorization", caller, "A2A-Version", "1.0");
        return JSON.readTree(r.body().toString());
    }

    static JsonNode tree(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String create(String task, String id, String url, String token) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"CreateTaskPushNotificationConfig\",\"params\":{\"taskId\":\""
                + task + "\"," + (id == null ? "" : "\"id\":\"" + id + "\",") + "\"url\":\"" + url + "\",\"token\":\""
                + token + "\",\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"abc\"}}}";
    }

    static String get(String task, String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"GetTaskPushNotificationConfig\",\"params\":{\"taskId\":\""
                + task + "\",\"id\":\"" + id + "\"}}";
    }

    static String list(String task) {
        return "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ListTaskPushNotificationConfigs\",\"params\":{\"taskId\":\""
                + task + "\"}}";
    }

    static String delete(String task, String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"DeleteTaskPushNotificationConfig\",\"params\":{\"taskId\":\""
                + task + "\",\"id\":\"" + id + "\"}}";
    }

    /** A 1.0 StreamResponse with a status update, as an agent POSTs it. */
    static String status(String task, String state) {
        return "{\"statusUpdate\":{\"taskId\":\"" + task + "\",\"contextId\":\"c\",\"status\":{\"state\":\"" + state
                + "\"}}}";
    }

    /** The config the agent was last given: the gateway's callback URL and secret. */
    static JsonNode agentsConfig() throws Exception {
        return JSON.readTree(pusher.last().body().toString()).path("params");
    }

    /** The agent's side: a notification POSTed to the callback it was given. */
    static Reply callback(JsonNode given, String body) {
        String path = given.path("url").asText().substring(h.base().length());
        return h.http().post(path, body, "X-A2A-Notification-Token", given.path("token").asText(),
                "Content-Type", "application/a2a+json");
    }

    static String subscribeCall(String mode, String task) {
        return "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"" + (mode.equals("1.0") ? "SubscribeToTask" : "tasks/resubscribe")
                + "\",\"params\":{\"id\":\"" + task + "\"}}";
    }

    static SseCall subscribe(String mode, String task) {
        return mode.equals("1.0")
                ? h.http().stream("/a2a/streamer", subscribeCall(mode, task), "Authorization", ALICE, "A2A-Version", "1.0")
                : h.http().stream("/a2a/streamer", subscribeCall(mode, task), "Authorization", ALICE);
    }

    /** The error code of a plain JSON-RPC error or of an SSE stream's error event. */
    static int errorCodeIn(String text) throws Exception {
        String json = text.strip();
        if (!json.startsWith("{")) {
            json = json.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip())
                    .filter(l -> l.contains("\"error\"")).findFirst().orElse("{}");
        }
        return JSON.readTree(json).path("error").path("code").asInt();
    }

    static List<JsonNode> results(List<JsonNode> events) {
        List<JsonNode> out = new ArrayList<>();
        events.forEach(e -> out.add(e.path("result")));
        return out;
    }
}
