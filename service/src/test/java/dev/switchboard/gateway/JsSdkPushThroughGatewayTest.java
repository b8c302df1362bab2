package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.testing.InteropTest;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * G14 with the stock {@code @a2a-js/sdk} 1.3 client (interop/client.mjs): its push config calls (create, get, list,
 * delete) work through the gateway unchanged, in both versions, and it sees its own URL and token while the agent
 * sees the gateway's. The agent is a bare upstream serving the testkit's card with {@code pushNotifications: true}
 * (the SDK refuses push calls otherwise) and taking push configs as agents do.
 */
@ServerTest
@ProcessTest
@InteropTest
class JsSdkPushThroughGatewayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent agent;
    static String cardUrl;
    static final AtomicReference<String> card = new AtomicReference<>();

    @BeforeAll
    static void start() throws Exception {
        JsSdkThroughGatewayTest.interop = JsSdkThroughGatewayTest.findInterop();
        h = new Harness(dir);
        TestAgent model = h.agent(TestAgentOptions.echo("model"));
        HttpResponse<String> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(model.url().replaceAll("/+$", "") + "/.well-known/agent-card.json"))
                .header("A2A-Version", "1.0").build(), HttpResponse.BodyHandlers.ofString());
        ObjectNode c = (ObjectNode) JSON.readTree(got.body());
        ((ObjectNode) c.path("capabilities")).put("pushNotifications", true);
        card.set(c.toString());
        agent = h.raw((request, body, exchange) -> {
            if (exchange.method().equals("GET")) {
                exchange.reply(card.get());
                return;
            }
            try {
                JsonNode call = JSON.readTree(body.toString());
                ObjectNode reply = JSON.createObjectNode().put("jsonrpc", "2.0");
                reply.set("id", call.get("id"));
                String method = call.path("method").asText();
                if (method.startsWith("Create") || method.endsWith("/set")) {
                    reply.set("result", call.get("params"));
                } else if (method.startsWith("Delete")) {
                    reply.putObject("result");
                } else {
                    reply.putNull("result");
                }
                exchange.reply(reply.toString());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        h.backend("js-push", agent.url()).start();
        cardUrl = h.base() + "/a2a/js-push/.well-known/agent-card.json";
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    private static JsonNode run(String mode, String op, String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("--card", cardUrl, "--mode", mode, "--op", op));
        args.addAll(List.of(more));
        List<JsonNode> out = new JsSdkThroughGatewayTest.Client(args.toArray(String[]::new)).finish(60);
        assertThat(out).hasSize(1);
        return out.get(0);
    }

    private static JsonNode lastAgentCall() throws Exception {
        List<RawAgent.Exchange> posts = agent.exchanges().stream().filter(e -> e.method().equals("POST")).toList();
        return JSON.readTree(posts.get(posts.size() - 1).body().toString());
    }

    @ParameterizedTest(name = "A2A {0}")
    @ValueSource(strings = {"1.0", "0.3"})
    void thePushConfigCallsOfTheStockClientWorkThroughTheGateway(String mode) throws Exception {
        String task = "js-task-" + mode;
        String hook = "http://127.0.0.1:9/hook-" + mode;
        JsonNode set = run(mode, "push-set", "--task-id", task, "--config-id", "cfg-js", "--push-url", hook,
                "--push-token", "caller-token", "--push-credentials", "abc");
        assertThat(set.path("url").asText()).as(set.toString()).isEqualTo(hook);
        assertThat(set.path("token").asText()).isEqualTo("caller-token");
        assertThat(set.path("id").asText()).isEqualTo("cfg-js");

        JsonNode sent = lastAgentCall().path("params");
        JsonNode given = mode.equals("1.0") ? sent : sent.path("pushNotificationConfig");
        assertThat(given.path("url").asText()).startsWith(h.base() + "/a2a/js-push/push/");
        assertThat(given.path("token").asText()).isNotEqualTo("caller-token");

        JsonNode get = run(mode, "push-get", "--task-id", task, "--config-id", "cfg-js");
        assertThat(get.path("url").asText()).as(get.toString()).isEqualTo(hook);
        JsonNode list = run(mode, "push-list", "--task-id", task);
        assertThat(list.path("configs")).as(list.toString()).hasSize(1);
        assertThat(list.path("configs").path(0).path("url").asText()).isEqualTo(hook);

        JsonNode deleted = run(mode, "push-delete", "--task-id", task, "--config-id", "cfg-js");
        assertThat(deleted.path("deleted").asBoolean()).isTrue();
        assertThat(lastAgentCall().path("method").asText())
                .isEqualTo(mode.equals("1.0") ? "DeleteTaskPushNotificationConfig" : "tasks/pushNotificationConfig/delete");
        assertThat(run(mode, "push-list", "--task-id", task).path("configs")).isEmpty();
    }
}
