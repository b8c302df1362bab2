package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G1: {@code POST /a2a/{agentId}} takes a JSON-RPC 2.0 request and forwards any method (A2A 1.0
 * names, 0.3 names, custom ones) to the agent's URL unchanged; the agent's reply comes back on the
 * same HTTP response, byte for byte where the agent answered.
 */
@ServerTest
class G1ForwardingTest {

    /** Odd spacing, member order, escapes and non-ASCII text: any re-serialisation would change these bytes. */
    private static final String ODD_BODY = "{ \"method\" :\"message/send\",\n  \"params\": {\"message\": {\"role\":\"user\","
            + "\"parts\":[{\"text\":\"h\\u00e9llo \u2603 \\\"quoted\\\"\",\"kind\":\"text\"}],\"kind\":\"message\","
            + "\"messageId\":\"m-odd-1\"},  \"metadata\":{\"n\":1.50,\"big\":12345678901234567890}},"
            + "\"id\" : \"req-\u00e9-1\", \"jsonrpc\":\"2.0\" }\n";

    /** What the raw agent answers: valid JSON-RPC, formatted the way no serialiser would. */
    private static final String EXACT_REPLY = "{\"result\" : {\"z\":1, \"a\" : [ 1,2 ] ,\"text\":\"\u00e9\\u00e9\"},"
            + "  \"id\":1,\"jsonrpc\":\"2.0\"}\r\n\n";

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent echo;
    static RawAgent exact;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        echo = h.agent(TestAgentOptions.echo("echo"));
        exact = h.raw(RawAgent.fixed(200, "application/json; charset=utf-8", EXACT_REPLY));
        h.backend("echo", echo.url()).backend("exact", exact.url()).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @BeforeEach
    void clear() {
        echo.recorder().clear();
        exact.clear();
    }

    @Test
    void g1_forwardsTheOriginalBytesUnchangedToTheAgentsUrl() {
        Reply reply = h.http().rpc("echo", ODD_BODY);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("id").asText()).isEqualTo("req-\u00e9-1");
        assertThat(reply.json().path("result").path("status").path("state").asText()).isEqualTo("completed");
        RecordedRequest received = echo.recorder().lastRequest();
        assertThat(received.httpMethod()).isEqualTo("POST");
        assertThat(received.path()).isEqualTo("/");
        assertThat(received.body()).isEqualTo(ODD_BODY);
        assertThat(received.body().getBytes(StandardCharsets.UTF_8)).isEqualTo(ODD_BODY.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void g1_forwardsAnyMethod_a2a10Names_a2a03Names_andCustomOnes() {
        TestHttp http = h.http();

        Reply v10 = http.rpc("echo", Rpc.send10(1, "SendMessage", "hello 1.0").toString(), "A2A-Version", "1.0");
        assertThat(v10.json().path("result").path("task").path("status").path("state").asText())
                .isEqualTo("TASK_STATE_COMPLETED");
        String taskId = v10.json().path("result").path("task").path("id").asText();

        Reply getTask = http.rpc("echo", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"GetTask\",\"params\":{\"id\":\"" + taskId
                + "\"}}", "A2A-Version", "1.0");
        assertThat(getTask.json().path("result").path("id").asText()).isEqualTo(taskId);

        Reply v03 = http.rpc("echo", Rpc.send(3, "hello 0.3"));
        assertThat(v03.json().path("result").path("kind").asText()).isEqualTo("task");

        Reply tasksGet = http.rpc("echo", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/get\",\"params\":{\"id\":\""
                + v03.json().path("result").path("id").asText() + "\"}}");
        assertThat(tasksGet.json().path("result").path("status").path("state").asText()).isEqualTo("completed");

        // custom methods reach the agent too; the agent (not the gateway) decides it does not know them
        Reply custom = http.rpc("echo", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"custom/action\",\"params\":{\"data\":\"x\"}}");
        assertThat(custom.errorCode()).isEqualTo(-32601);
        assertThat(custom.errorData().path("source").isMissingNode()).isTrue();
        Reply tools = http.rpc("echo", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/invoke\"}");
        assertThat(tools.errorCode()).isEqualTo(-32601);

        assertThat(echo.recorder().rpcMethods())
                .containsExactly("SendMessage", "GetTask", "message/send", "tasks/get", "custom/action", "tools/invoke");
    }

    @Test
    void g1_relaysTheAgentsReplyByteForByte() {
        Reply reply = h.http().rpc("exact", Rpc.send(1, "anything"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.bytes()).isEqualTo(EXACT_REPLY.getBytes(StandardCharsets.UTF_8));
        assertThat(reply.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
        assertThat(exact.last().path()).isEqualTo("/");
    }

    @Test
    void g1_relaysTheTestkitAgentsRepliesExactlyAsTheAgentWroteThem() {
        // deterministic replies, so the agent's own bytes can be fetched directly and compared
        TestHttp direct = new TestHttp(h.vertx, echo.url().replaceAll("/$", ""));
        try {
            for (String body : List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":\"x-1\",\"method\":\"custom/action\",\"params\":{}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tasks/get\",\"params\":{\"id\":\"no-such-task\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tasks/cancel\",\"params\":{\"id\":\"no-such-task\"}}")) {
                Reply expected = direct.post("/", body);
                Reply relayed = h.http().rpc("echo", body);
                assertThat(relayed.status()).isEqualTo(expected.status());
                assertThat(relayed.bytes()).as(body).isEqualTo(expected.bytes());
                assertThat(relayed.header("Content-Type")).isEqualTo(expected.header("Content-Type"));
            }
        } finally {
            direct.close();
        }
    }
}
