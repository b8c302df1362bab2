package dev.switchboard.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.policy.AccessPolicySpec;
import dev.switchboard.policy.AccessPolicySpec.Subject;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP door asks the gateway's AccessPolicy grants: a caller lists and calls through /mcp only the agents and
 * methods a policy grants it through /a2a, and an agent it has no grant for is an unknown agent that is never
 * contacted.
 */
@ServerTest
class McpFollowsTheGrantsTest {

    private static final String CI_KEY = "ci-key-mcp-grants-0123456789";

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent open;
    static TestAgent hidden;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        open = h.agent(TestAgentOptions.echo("granted"));
        hidden = h.agent(TestAgentOptions.echo("hidden"));
        h.apiKey("ci-bot", CI_KEY).backend("granted", open.url()).backend("hidden", hidden.url())
                .policy(new AccessPolicySpec("ci", List.of(new Subject.ApiKey("ci-bot")), List.of("granted"), Map.of(),
                        List.of(), List.of("message/send", "tasks/get"), null))
                .start();
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    private static McpSyncClient client() {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(h.base())
                .endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + CI_KEY))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30))
                .jsonSchemaValidator((schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null))
                .build();
        client.initialize();
        return client;
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    void aCallerListsAndCallsOnlyTheAgentsAndMethodsItIsGranted() {
        McpSyncClient client = client();
        try {
            String listed = text(client.callTool(new McpSchema.CallToolRequest("list_agents", Map.of())));
            assertThat(listed).contains("granted").doesNotContain("hidden");

            McpSchema.CallToolResult sent = client.callTool(new McpSchema.CallToolRequest("send_message",
                    Map.of("agent", "granted", "text", "hello through a grant")));
            assertThat(sent.isError()).isNotEqualTo(Boolean.TRUE);
            assertThat(text(sent)).contains("hello through a grant");

            McpSchema.CallToolResult refused = client.callTool(new McpSchema.CallToolRequest("send_message",
                    Map.of("agent", "hidden", "text", "let me in")));
            assertThat(refused.isError()).isTrue();
            assertThat(text(refused)).contains("agent not found: hidden");
            assertThat(hidden.recorder().requests()).as("an agent without a grant is never contacted").isEmpty();

            String taskId = String.valueOf(((Map<?, ?>) sent.structuredContent()).get("taskId"));
            McpSchema.CallToolResult cancel = client.callTool(new McpSchema.CallToolRequest("cancel_task",
                    Map.of("agent", "granted", "taskId", taskId)));
            assertThat(cancel.isError()).isTrue();
            assertThat(text(cancel)).contains("no grant").contains("tasks/cancel");
            assertThat(open.recorder().rpcMethods()).noneMatch(m -> m.equals("tasks/cancel") || m.equals("CancelTask"));
        } finally {
            client.closeGracefully();
        }
    }
}
