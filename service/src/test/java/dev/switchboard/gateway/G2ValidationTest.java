package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G2: validation before routing. Unknown agent → -32002 {@code agent not found: <id>} (not HTTP
 * 404); malformed agent id, {@code jsonrpc} not "2.0", missing or empty {@code method}, batch body →
 * -32600; Content-Type not JSON or invalid JSON → -32700 with {@code id: null}. A notification (no
 * {@code id}) is forwarded and answered with HTTP 204.
 */
@ServerTest
class G2ValidationTest {

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent echo;

    /** Set by tests whose requests must never reach the agent. */
    boolean mustNotReachTheAgent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        echo = h.agent(TestAgentOptions.echo("echo"));
        h.backend("echo", echo.url()).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @BeforeEach
    void clear() {
        echo.recorder().clear();
        mustNotReachTheAgent = true;
    }

    @AfterEach
    void nothingReachedTheAgent() {
        if (mustNotReachTheAgent) {
            assertThat(echo.recorder().requests()).as("requests that reached the agent").isEmpty();
        }
    }

    @Test
    void g2_unknownAgentIsMinus32002InTheBodyNotHttp404() {
        Reply reply = h.http().rpc("ghost-agent", Rpc.send(7, "hello"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        assertThat(reply.errorCode()).isEqualTo(-32002);
        assertThat(reply.errorMessage()).isEqualTo("agent not found: ghost-agent");
        assertThat(reply.json().path("id").asInt()).isEqualTo(7);
        assertThat(reply.json().path("jsonrpc").asText()).isEqualTo("2.0");
    }

    @Test
    void g2_malformedAgentIdIsMinus32600() {
        for (String id : List.of("Bad_Agent", "UPPER", "a", "agent@1", "agent.one", "a".repeat(64), "bad%20id")) {
            Reply reply = h.http().rpc(id, Rpc.send(8, "hello"));
            assertThat(reply.status()).as(id).isEqualTo(200);
            assertThat(reply.errorCode()).as(id).isEqualTo(-32600);
            assertThat(reply.json().path("id").asInt()).as(id).isEqualTo(8);
        }
        // no agent id at all
        for (String path : List.of("/a2a", "/a2a/")) {
            Reply reply = h.http().post(path, Rpc.send(9, "hello"));
            assertThat(reply.errorCode()).as(path).isEqualTo(-32600);
        }
        // the longest and shortest valid ids are not malformed: they are just unknown
        assertThat(h.http().rpc("a".repeat(63), Rpc.send(1, "x")).errorCode()).isEqualTo(-32002);
        assertThat(h.http().rpc("a1", Rpc.send(1, "x")).errorCode()).isEqualTo(-32002);
    }

    @Test
    void g2_jsonrpcOtherThan20IsMinus32600() {
        for (String body : List.of(
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"message/send\"}",
                "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"message/send\"}",
                "{\"jsonrpc\":\"2.0.0\",\"id\":1,\"method\":\"message/send\"}",
                "{\"jsonrpc\":null,\"id\":1,\"method\":\"message/send\"}",
                "{\"id\":1,\"method\":\"message/send\"}")) {
            Reply reply = h.http().rpc("echo", body);
            assertThat(reply.status()).as(body).isEqualTo(200);
            assertThat(reply.errorCode()).as(body).isEqualTo(-32600);
            assertThat(reply.json().path("id").asInt()).as(body).isEqualTo(1);
        }
    }

    @Test
    void g2_missingOrEmptyMethodIsMinus32600() {
        for (String body : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"   \"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":null}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":42}")) {
            Reply reply = h.http().rpc("echo", body);
            assertThat(reply.errorCode()).as(body).isEqualTo(-32600);
            assertThat(reply.json().path("id").asText()).as(body).isEqualTo("q");
        }
    }

    @Test
    void g2_batchBodyIsMinus32600() {
        String batch = "[" + Rpc.send(1, "a") + "," + Rpc.send(2, "b") + "]";
        Reply reply = h.http().rpc("echo", batch);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.errorCode()).isEqualTo(-32600);
        assertThat(reply.json().get("id").isNull()).isTrue();
        assertThat(h.http().rpc("echo", "[]").errorCode()).isEqualTo(-32600);
    }

    @Test
    void g2_contentTypeNotJsonIsMinus32700WithNullId() {
        for (String type : new String[] {"text/plain", "application/x-www-form-urlencoded", "text/json-ish", null}) {
            Reply reply = h.http().rpc("echo", Rpc.send(5, "hello"), "Content-Type", type);
            assertThat(reply.status()).as(String.valueOf(type)).isEqualTo(200);
            assertThat(reply.errorCode()).as(String.valueOf(type)).isEqualTo(-32700);
            assertThat(reply.json().has("id")).isTrue();
            assertThat(reply.json().get("id").isNull()).as("id of a parse error").isTrue();
        }
    }

    @Test
    void g2_invalidJsonIsMinus32700WithNullId() {
        for (String body : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"message/send\"} trailing",
                "{'jsonrpc':'2.0','id':5}",
                "not json at all",
                "")) {
            Reply reply = h.http().rpc("echo", body);
            assertThat(reply.status()).as(body).isEqualTo(200);
            assertThat(reply.errorCode()).as(body).isEqualTo(-32700);
            assertThat(reply.json().get("id").isNull()).as(body).isTrue();
        }
    }

    @Test
    void g2_jsonContentTypesWithParametersAreAccepted() {
        mustNotReachTheAgent = false;
        Reply reply = h.http().rpc("echo", Rpc.send(11, "hello"), "Content-Type", "application/json; charset=utf-8");
        assertThat(reply.json().path("result").path("kind").asText()).isEqualTo("task");
    }

    @Test
    void g2_notificationIsForwardedAndAnsweredWith204() {
        mustNotReachTheAgent = false;
        String notification = Rpc.send03(null, "message/send", "fire and forget").toString();

        Reply reply = h.http().rpc("echo", notification);

        assertThat(reply.status()).isEqualTo(204);
        assertThat(reply.body().length()).isZero();
        assertThat(echo.recorder().rpcRequests()).hasSize(1);
        assertThat(echo.recorder().lastRequest().body()).isEqualTo(notification);
        assertThat(echo.recorder().lastRequest().id()).isNull();
    }
}
