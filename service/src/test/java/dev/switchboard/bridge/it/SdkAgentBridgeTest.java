package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.InteropTest;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bridge against a REAL {@code @a2a-js/sdk} 1.3.0 agent ({@code interop/sdk-agent.mjs}): one that
 * serves 1.0 and 0.3 on one URL (the bridge must pick 1.0 from the card's 1.0 JSON-RPC interface), and
 * one that serves only 0.3. The SDK's streams end with a final status update rather than a full Task,
 * so every turn is settled by GetTask (B6).
 */
@ServerTest
@ProcessTest
@InteropTest
class SdkAgentBridgeTest {

    private static final String PREFIX = "[Web: Ada Lovelace (ada) <ada@example.com>]\n";
    private static final Set<String> SENDS = Set.of("SendStreamingMessage", "message/stream", "SendMessage", "message/send");

    @TempDir
    static Path dir;

    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close().await();
    }

    @ParameterizedTest(name = "agent serving {0}")
    @ValueSource(strings = {"1.0,0.3", "0.3"})
    void carriesTurnsToTheSdkAgentInTheVersionItsCardOffers(String versions) throws Exception {
        boolean v1 = versions.contains("1.0");
        try (SdkAgent agent = SdkAgent.start(versions, dir)) {
            String name = v1 ? "sdk-both" : "sdk-legacy";
            SwitchboardApp app = SwitchboardFixture.builder().vertx(vertx)
                    .yaml(ConfigYaml.server(dir.resolve(name + ".db"), false, ConfigYaml.QUICK_CONTRACT)
                    .webAgent(name, agent.rpcUrl, false)).start().app();
            try {
                ChatApi chat = new ChatApi(app.baseUrl());
                Sent first = chat.newThread(name, "hello, real SDK");
                chat.awaitState(first.threadId(), first.messageId(), "completed");
                Sent second = chat.send(first.threadId(), "and again, in the same context");
                List<Post> posts = chat.awaitState(first.threadId(), second.messageId(), "completed");

                // the SDK echoes the text it got, prefix line included, as one artifact: that is the answer
                assertThat(WebChatBridgeTest.answerTo(posts, first.messageId())).isEqualTo(PREFIX + "hello, real SDK");
                assertThat(WebChatBridgeTest.answerTo(posts, second.messageId()))
                        .isEqualTo(PREFIX + "and again, in the same context");
                assertThat(posts).filteredOn(p -> "notice".equals(p.kind())).isEmpty();

                JsonNode received = agent.received();
                List<JsonNode> rpc = agent.rpcRequests();
                List<JsonNode> sends = rpc.stream().filter(r -> SENDS.contains(r.path("body").path("method").asText()))
                        .toList();
                assertThat(sends).extracting(r -> message(r).path("messageId").asText())
                        .containsExactly(first.messageId(), second.messageId());
                JsonNode executions = received.path("executions");
                assertThat(executions).hasSize(2);
                String agentsContext = executions.get(0).path("contextId").asText();
                assertThat(message(sends.get(0)).has("contextId")).as("the first turn names no context").isFalse();
                assertThat(message(sends.get(1)).path("contextId").asText()).as("the second carries the agent's")
                        .isEqualTo(agentsContext);
                assertThat(executions.get(1).path("contextId").asText()).isEqualTo(agentsContext);

                for (JsonNode send : sends) {
                    JsonNode m = message(send);
                    JsonNode headers = send.path("headers");
                    if (v1) {
                        assertThat(send.path("body").path("method").asText()).isEqualTo("SendStreamingMessage");
                        assertThat(headers.path("a2a-version").asText()).isEqualTo("1.0");
                        assertThat(m.path("role").asText()).isEqualTo("ROLE_USER");
                    } else {
                        assertThat(send.path("body").path("method").asText()).isEqualTo("message/stream");
                        assertThat(headers.has("a2a-version")).isFalse();
                        assertThat(m.path("kind").asText()).isEqualTo("message");
                        assertThat(m.path("role").asText()).isEqualTo("user");
                    }
                    assertThat(m.path("parts")).hasSize(1);
                    assertThat(m.path("parts").get(0).path("text").asText()).startsWith(PREFIX);
                    assertThat(m.has("taskId")).isFalse();
                    assertThat(m.path("metadata").path("agentkourier.dev/actor")).isEqualTo(ChatApi.JSON.createObjectNode()
                            .put("id", "ada").put("name", "Ada Lovelace").put("email", "ada@example.com"));
                }
                for (JsonNode r : received.path("requests")) {
                    JsonNode headers = r.path("headers");
                    assertThat(headers.path("x-user-id").asText()).as("identity on %s", r.path("path")).isEqualTo(
                            ConfigYaml.BOT_USER);
                    assertThat(headers.has("authorization")).isFalse();
                    assertThat(headers.path("x-team").asText()).isEqualTo("sre");
                    assertThat(r.path("path").asText()).as("every call goes to the endpoint")
                            .isIn("/a2a/jsonrpc", "/a2a/jsonrpc/.well-known/agent-card.json");
                }
                // the stream ended with a status update, not a full Task: GetTask settled each turn
                assertThat(rpc).extracting(r -> r.path("body").path("method").asText())
                        .contains(v1 ? "GetTask" : "tasks/get")
                        .doesNotContain("SendMessage", "message/send", "ListTasks");
            } finally {
                app.close().await();
            }
        }
    }

    private static JsonNode message(JsonNode request) {
        return request.path("body").path("params").path("message");
    }
}
