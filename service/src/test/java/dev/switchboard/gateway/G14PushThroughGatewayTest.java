package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * G14: push configs set through the gateway are kept by it, the agent is given the gateway's callback and a secret,
 * a verified callback reaches the caller's URL once with the caller's token and credentials, a forged one reaches
 * nothing, and bad configs are clear errors. The agent is a bare HTTP upstream that takes push configs; the test plays
 * the agent's side of the callback itself.
 */
@ServerTest
class G14PushThroughGatewayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Delivered(String body, String token, String authorization) {}

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent agent;
    static RawAgent streamer;
    static HttpServer receiver;
    static final List<Delivered> delivered = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        h = new Harness(dir);
        agent = h.raw((request, body, exchange) -> {
            JsonNode call;
            try {
                call = JSON.readTree(body.toString());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            ObjectNode reply = JSON.createObjectNode().put("jsonrpc", "2.0");
            reply.set("id", call.get("id"));
            String method = call.path("method").asText();
            if (method.endsWith("set") || method.startsWith("Create")) {
                reply.set("result", call.get("params")); // as agents do: the config as stored
            } else {
                reply.putNull("result");
            }
            exchange.reply(reply.toString());
        });
        // an agent that answers every call with an event stream naming another caller's config and its secret
        streamer = h.raw(RawAgent.fixed(200, "text/event-stream", "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":"
                + "{\"configs\":[{\"id\":\"theirs\",\"url\":\"http://gw/a2a/x/push/cb\",\"token\":\"SECRET-OF-ANOTHER\"}]}}\n\n"));
        h.backend("pusher", agent.url()).backend("streamer", streamer.url()).start();
        receiver = h.vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            delivered.add(new Delivered(b.toString(), req.getHeader("X-A2A-Notification-Token"),
                    req.getHeader("Authorization")));
            req.response().end();
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @BeforeEach
    void clear() {
        agent.clear();
        delivered.clear();
    }

    static String hook() {
        return "http://127.0.0.1:" + receiver.actualPort() + "/hook";
    }

    static String set(String mode, String task, String url, String token) {
        String config = "\"url\":\"" + url + "\",\"token\":\"" + token + "\",\"authentication\":"
                + (mode.equals("1.0") ? "{\"scheme\":\"Bearer\",\"credentials\":\"abc\"}"
                : "{\"schemes\":[\"Bearer\"],\"credentials\":\"abc\"}");
        return mode.equals("1.0")
                ? "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"CreateTaskPushNotificationConfig\",\"params\":{\"taskId\":\""
                        + task + "\",\"id\":\"cfg-1\"," + config + "}}"
                : "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/pushNotificationConfig/set\",\"params\":{\"taskId\":\""
                        + task + "\",\"pushNotificationConfig\":{\"id\":\"cfg-1\"," + config + "}}}";
    }

    static JsonNode rpc(String body) throws Exception {
        Reply r = h.http().rpc("pusher", body);
        return JSON.readTree(r.body().toString());
    }

    /** The config as the agent got it: 1.0's flat params or 0.3's nested config. */
    static JsonNode agentsConfig(String mode) throws Exception {
        JsonNode params = JSON.readTree(agent.last().body().toString()).path("params");
        return mode.equals("1.0") ? params : params.path("pushNotificationConfig");
    }

    static Reply callback(String url, String token, String body) {
        String path = url.substring(h.base().length());
        return token == null ? h.http().post(path, body) : h.http().post(path, body, "X-A2A-Notification-Token", token);
    }

    @ParameterizedTest(name = "A2A {0}")
    @ValueSource(strings = {"1.0", "0.3"})
    void theAgentGetsTheGatewaysCallbackAndTheCallerItsOwnConfigBackAndItsNotificationsOnce(String mode) throws Exception {
        String task = "task-" + mode;
        JsonNode reply = rpc(set(mode, task, hook(), "caller-token"));
        JsonNode mine = mode.equals("1.0") ? reply.path("result") : reply.path("result").path("pushNotificationConfig");
        assertThat(mine.path("url").asText()).as(reply.toString()).isEqualTo(hook());
        assertThat(mine.path("token").asText()).isEqualTo("caller-token");
        assertThat(mine.path("authentication").path("credentials").asText()).isEqualTo("abc");

        JsonNode given = agentsConfig(mode);
        String callbackUrl = given.path("url").asText();
        String secret = given.path("token").asText();
        assertThat(callbackUrl).startsWith(h.base() + "/a2a/pusher/push/");
        assertThat(secret).hasSizeGreaterThanOrEqualTo(40).isNotEqualTo("caller-token");
        assertThat(given.has("authentication")).as("the caller's credentials never reach the agent").isFalse();

        String get = mode.equals("1.0")
                ? "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"GetTaskPushNotificationConfig\",\"params\":{\"taskId\":\"" + task
                        + "\",\"id\":\"cfg-1\"}}"
                : "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/pushNotificationConfig/get\",\"params\":{\"id\":\"" + task
                        + "\",\"pushNotificationConfigId\":\"cfg-1\"}}";
        JsonNode got = rpc(get).path("result");
        assertThat((mode.equals("1.0") ? got : got.path("pushNotificationConfig")).path("url").asText()).isEqualTo(hook());
        String list = mode.equals("1.0")
                ? "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ListTaskPushNotificationConfigs\",\"params\":{\"taskId\":\"" + task + "\"}}"
                : "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/pushNotificationConfig/list\",\"params\":{\"id\":\"" + task + "\"}}";
        JsonNode listed = rpc(list).path("result");
        assertThat(mode.equals("1.0") ? listed.path("configs") : listed).hasSize(1);

        String event = "{\"kind\":\"status-update\",\"taskId\":\"" + task + "\",\"status\":{\"state\":\"working\"}}";
        assertThat(callback(callbackUrl, secret, event).status()).isEqualTo(200);
        assertThat(callback(callbackUrl, secret, event).status()).as("sent again: kept once").isEqualTo(200);
        String done = event.replace("working", "completed");
        assertThat(callback(callbackUrl, secret, done).status()).isEqualTo(200);
        await().until(() -> delivered.stream().anyMatch(d -> d.body().equals(done)));
        assertThat(delivered).extracting(Delivered::body).containsExactlyInAnyOrder(event, done);
        assertThat(delivered).allSatisfy(d -> {
            assertThat(d.token()).isEqualTo("caller-token");
            assertThat(d.authorization()).isEqualTo("Bearer abc");
        });
        assertThat(h.metrics().sum("switchboard_gateway_push_delivered_total")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aForgedCallbackIsRefusedAndNothingIsDelivered() throws Exception {
        rpc(set("1.0", "task-forged", hook(), "caller-token"));
        JsonNode given = agentsConfig("1.0");
        String callbackUrl = given.path("url").asText();
        String secret = given.path("token").asText();

        assertThat(callback(callbackUrl, "not-the-secret", "{\"forged\":1}").status()).isEqualTo(401);
        assertThat(callback(callbackUrl, null, "{\"forged\":2}").status()).isEqualTo(401);
        assertThat(callback(callbackUrl.substring(0, callbackUrl.lastIndexOf('/') + 1) + "no-such-callback", secret,
                "{\"forged\":3}").status()).isEqualTo(401);
        // a callback of this agent's config sent on another agent's path
        assertThat(callback(callbackUrl.replace("/a2a/pusher/", "/a2a/other/"), secret, "{\"forged\":4}").status())
                .isEqualTo(401);

        assertThat(callback(callbackUrl, secret, "{\"real\":1}").status()).isEqualTo(200);
        await().until(() -> !delivered.isEmpty());
        assertThat(delivered).extracting(Delivered::body).containsExactly("{\"real\":1}");
    }

    @Test
    void aPushUrlAtARefusedAddressIsAClearErrorAndTheAgentIsNotCalled() throws Exception {
        JsonNode reply = rpc(set("0.3", "task-meta", "http://169.254.169.254/latest/meta-data", "t"));
        assertThat(reply.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(reply.path("error").path("message").asText())
                .isEqualTo("invalid params: params.pushNotificationConfig.url points at an address agents may not use");
        JsonNode query = rpc(set("1.0", "task-meta", "http://u:p@example.com/hook", "t"));
        assertThat(query.path("error").path("message").asText())
                .isEqualTo("invalid params: params.url must not carry user information (user:password@)");
        assertThat(agent.exchanges()).isEmpty();
    }

    @Test
    void anOversizedConfigIsRefused() throws Exception {
        JsonNode reply = rpc(set("1.0", "task-big", hook(), "x".repeat(20_000)));
        assertThat(reply.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(reply.path("error").path("message").asText()).startsWith("invalid params: push config too large: ")
                .endsWith("bytes, at most 16384");
        JsonNode longToken = rpc(set("1.0", "task-big", hook(), "x".repeat(3000)));
        assertThat(longToken.path("error").path("message").asText())
                .isEqualTo("invalid params: params.url, token and credentials must be printable ASCII of at most 2048 characters");
        assertThat(agent.exchanges()).isEmpty();
    }

    @Test
    void aDeletedConfigIsGoneAndItsCallbackRefused() throws Exception {
        rpc(set("1.0", "task-del", hook(), "caller-token"));
        JsonNode given = agentsConfig("1.0");
        JsonNode deleted = rpc("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"DeleteTaskPushNotificationConfig\",\"params\":"
                + "{\"taskId\":\"task-del\",\"id\":\"cfg-1\"}}");
        assertThat(deleted.has("error")).as(deleted.toString()).isFalse();
        assertThat(JSON.readTree(agent.last().body().toString()).path("method").asText())
                .isEqualTo("DeleteTaskPushNotificationConfig");
        JsonNode get = rpc("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"GetTaskPushNotificationConfig\",\"params\":"
                + "{\"taskId\":\"task-del\",\"id\":\"cfg-1\"}}");
        assertThat(get.path("error").path("message").asText()).isEqualTo("invalid params: no push config 'cfg-1' of task task-del");
        assertThat(callback(given.path("url").asText(), given.path("token").asText(), "{}").status()).isEqualTo(401);
    }

    @Test
    void aNotificationOverOneMebibyteIsRefusedAndNothingIsDelivered() throws Exception {
        rpc(set("1.0", "task-huge", hook(), "caller-token"));
        JsonNode given = agentsConfig("1.0");
        String callbackUrl = given.path("url").asText();
        String secret = given.path("token").asText();
        String huge = "{\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}";
        assertThat(callback(callbackUrl, secret, huge).status()).isEqualTo(413);
        assertThat(callback(callbackUrl, secret, "{\"small\":1}").status()).isEqualTo(200);
        await().until(() -> !delivered.isEmpty());
        assertThat(delivered).extracting(Delivered::body).containsExactly("{\"small\":1}");
    }

    @Test
    void anAgentThatAnswersAPushConfigCallWithAStreamShowsTheCallerNothingOfIt() throws Exception {
        Reply list = h.http().rpc("streamer", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
                + "\"ListTaskPushNotificationConfigs\",\"params\":{\"taskId\":\"t-any\"}}", "A2A-Version", "1.0");
        assertThat(list.header("Content-Type")).startsWith("application/json");
        assertThat(list.text()).doesNotContain("SECRET-OF-ANOTHER");
        assertThat(JSON.readTree(list.text()).path("result").path("configs")).isEmpty();
        Reply create = h.http().rpc("streamer", set("1.0", "t-any", hook(), "tok"), "A2A-Version", "1.0");
        assertThat(create.text()).doesNotContain("SECRET-OF-ANOTHER");
        assertThat(JSON.readTree(create.text()).path("error").path("message").asText()).contains("JSON-RPC reply");
    }
}
