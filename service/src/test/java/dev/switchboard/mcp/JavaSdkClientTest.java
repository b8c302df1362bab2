package dev.switchboard.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * Issue 25 with the official MCP Java SDK's client (its own Streamable HTTP transport, not ours): initialize, list
 * the tools, send to a testkit agent in A2A 1.0 and in 0.3, a streamed answer arriving as progress, a question
 * answered with send_message + taskId, a registration noticed as tools/list_changed, and bad input answered as
 * errors that name the problem.
 */
@ServerTest
class JavaSdkClientTest {

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent v10;
    static TestAgent v03;

    McpAsyncClient client;
    final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    final List<List<McpSchema.Tool>> toolChanges = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        v10 = h.agent(TestAgentOptions.echo("mcp-one").withVersions(ProtocolVersion.V1_0));
        v03 = h.agent(TestAgentOptions.echo("mcp-old").withVersions(ProtocolVersion.V0_3));
        h.backend("mcp-one", v10.url()).backend("mcp-old", v03.url()).start();
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    @BeforeEach
    void connect() {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(h.base())
                .endpoint("/mcp").build();
        client = McpClient.async(transport)
                .requestTimeout(Duration.ofSeconds(30))
                // our tools declare no output schema: nothing to validate
                .jsonSchemaValidator((schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null))
                .progressConsumer(p -> Mono.fromRunnable(() -> progress.add(p)))
                .toolsChangeConsumer(tools -> Mono.fromRunnable(() -> toolChanges.add(tools)))
                .build();
        client.initialize().block(Duration.ofSeconds(30));
    }

    @AfterEach
    void disconnect() {
        if (client != null) {
            client.closeGracefully().block(Duration.ofSeconds(10));
        }
    }

    private McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
        return call(tool, args, null);
    }

    private McpSchema.CallToolResult call(String tool, Map<String, Object> args, Map<String, Object> meta) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args, meta)).block(Duration.ofSeconds(30));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(McpSchema.CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    void listsTheFourTools() {
        List<String> names = client.listTools().block(Duration.ofSeconds(30)).tools().stream()
                .map(McpSchema.Tool::name).toList();
        assertThat(names).contains("list_agents", "send_message", "get_task", "cancel_task");
        McpSchema.CallToolResult agents = call("list_agents", Map.of());
        assertThat(text(agents)).contains("mcp-one", "mcp-old");
    }

    @Test
    void sendsToAnA2a10Agent() {
        McpSchema.CallToolResult r = call("send_message", Map.of("agent", "mcp-one", "text", "hello one"));
        assertThat(r.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(text(r)).contains("hello one");
        assertThat(structured(r)).containsEntry("state", "completed").containsKey("taskId").containsKey("contextId");
        assertThat(v10.recorder().rpcMethods()).contains("SendStreamingMessage");
    }

    @Test
    void sendsToAnA2a03Agent() {
        McpSchema.CallToolResult r = call("send_message", Map.of("agent", "mcp-old", "text", "hello old"));
        assertThat(text(r)).contains("hello old");
        assertThat(structured(r)).containsEntry("state", "completed");
        assertThat(v03.recorder().rpcMethods()).contains("message/stream");
    }

    @Test
    void aStreamedAnswerArrivesAsProgress() {
        McpSchema.CallToolResult r = call("send_message",
                Map.of("agent", "mcp-one", "text", "/stream 3 50\nstreamed words here"), Map.of("progressToken", "p-1"));
        assertThat(structured(r)).containsEntry("state", "completed");
        await().untilAsserted(() -> assertThat(progress).hasSizeGreaterThanOrEqualTo(2));
        assertThat(progress).allSatisfy(p -> assertThat(p.progressToken()).isEqualTo("p-1"));
        assertThat(String.join("", progress.stream().map(McpSchema.ProgressNotification::message).toList()))
                .contains("streamed");
    }

    @Test
    void aQuestionRoundTrips() {
        McpSchema.CallToolResult q = call("send_message", Map.of("agent", "mcp-one", "text", "/ask Which colour?"));
        assertThat(structured(q)).containsEntry("state", "input-required");
        assertThat(text(q)).contains("Which colour?");
        String taskId = (String) structured(q).get("taskId");
        String contextId = (String) structured(q).get("contextId");
        McpSchema.CallToolResult a = call("send_message",
                Map.of("agent", "mcp-one", "text", "blue", "taskId", taskId, "contextId", contextId));
        assertThat(structured(a)).containsEntry("state", "completed").containsEntry("taskId", taskId);
    }

    @Test
    void aQuestionIsElicitedFromAClientThatCanAndTheAnswerGoesToTheTask() {
        List<McpSchema.ElicitRequest> asked = new CopyOnWriteArrayList<>();
        McpAsyncClient eliciting = McpClient.async(HttpClientStreamableHttpTransport.builder(h.base()).endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(30))
                .jsonSchemaValidator((schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null))
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> {
                    asked.add(request);
                    return Mono.just(new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("answer", "blue")));
                })
                .build();
        try {
            eliciting.initialize().block(Duration.ofSeconds(30));
            McpSchema.CallToolResult r = eliciting.callTool(new McpSchema.CallToolRequest("send_message",
                    Map.of("agent", "mcp-one", "text", "/ask Which colour?"), null)).block(Duration.ofSeconds(30));
            assertThat(asked).as("the question asked of the person").hasSize(1);
            assertThat(asked.get(0).message()).contains("Which colour?");
            assertThat(structured(r)).as("the answer went to the task, which completed").containsEntry("state", "completed");
            String taskId = (String) structured(r).get("taskId");
            assertThat(v10.recorder().rpcRequests().stream().filter(q -> taskId.equals(q.taskId()))
                    .map(RecordedRequest::text)).as("the person's answer, sent to the task").contains("blue");
        } finally {
            eliciting.closeGracefully().block(Duration.ofSeconds(10));
        }
    }

    @Test
    void aDeclinedElicitationLeavesTheQuestionAsTheResult() {
        McpAsyncClient declining = McpClient.async(HttpClientStreamableHttpTransport.builder(h.base()).endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(30))
                .jsonSchemaValidator((schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null))
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> Mono.just(new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE, null)))
                .build();
        try {
            declining.initialize().block(Duration.ofSeconds(30));
            McpSchema.CallToolResult r = declining.callTool(new McpSchema.CallToolRequest("send_message",
                    Map.of("agent", "mcp-one", "text", "/ask Which size?"), null)).block(Duration.ofSeconds(30));
            assertThat(structured(r)).containsEntry("state", "input-required");
            assertThat(text(r)).contains("Which size?");
        } finally {
            declining.closeGracefully().block(Duration.ofSeconds(10));
        }
    }

    @Test
    void aRegistrationIsNotified() {
        TestAgent late = h.agent(TestAgentOptions.echo("mcp-late"));
        // the SDK client opens its listening stream after initialize; a registration reaches it as list_changed
        await().untilAsserted(() -> {
            Reply reg = h.http().post("/agents/register", "{\"agent_id\":\"mcp-late\",\"name\":\"Late\",\"url\":\""
                    + late.url() + "\"}", "Content-Type", "application/json");
            assertThat(reg.status()).isBetween(200, 299);
            assertThat(toolChanges).isNotEmpty();
        });
        assertThat(text(call("list_agents", Map.of()))).contains("mcp-late");
        h.http().delete("/agents/mcp-late");
    }

    @Test
    void badInputIsAnErrorNamingTheProblem() {
        assertThatThrownBy(() -> call("no_such_tool", Map.of())).hasMessageContaining("no_such_tool");
        McpSchema.CallToolResult wrongType = call("send_message", Map.of("agent", "mcp-one", "text", 42));
        assertThat(wrongType.isError()).isTrue();
        assertThat(text(wrongType)).contains("'text' must be a string");
        McpSchema.CallToolResult unknown = call("send_message", Map.of("agent", "nobody-here", "text", "hi"));
        assertThat(unknown.isError()).isTrue();
        assertThat(text(unknown)).contains("agent not found: nobody-here");
        McpSchema.CallToolResult huge = call("send_message", Map.of("agent", "mcp-one", "text", "x".repeat(300_000)));
        assertThat(huge.isError()).isTrue();
        assertThat(text(huge)).contains("larger than");
    }
}
