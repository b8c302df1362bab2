package dev.switchboard.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.CallFailure.HttpStatus;
import dev.switchboard.protocol.CallFailure.Malformed;
import dev.switchboard.protocol.CallFailure.RpcError;
import dev.switchboard.protocol.CallFailure.Transport;
import dev.switchboard.protocol.CallFailure.TransportKind;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The reply and transport rules of the non-streaming calls and the card fetch, each against a server built to break it. */
class CallRulesTest extends StubServerTest {

    private static AgentEndpoint endpoint(StubServer s) {
        return new AgentEndpoint(s.url("/"), ProtocolVersion.V1_0, Map.of("X-User-Id", "u-42"));
    }

    private static void reply(HttpServerRequest request, int status, String body) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
    }

    private CallFailure getTaskFailure(Handler<HttpServerRequest> handler) throws Exception {
        return Calls.failure(client.getTask(endpoint(server(handler)), "task-1", null));
    }

    @Test
    void readsAResultGivenWithTheAgentsOwnStatus() throws Exception {
        StubServer s = server(r -> reply(r, 200, Replies.taskResult(TaskState.WORKING)));

        Task task = Calls.result(client.getTask(endpoint(s), "task-1", 3));

        assertThat(task.id()).isEqualTo("task-1");
        assertThat(task.state()).isEqualTo(TaskState.WORKING);
        assertThat(s.received.get(0).body()).contains("\"method\":\"GetTask\"").contains("\"historyLength\":3");
        assertThat(s.received.get(0).headers().get("X-User-Id")).isEqualTo("u-42");
    }

    @Test
    void aRedirectIsNotFollowed() throws Exception {
        StubServer s = server(r -> {
            if (r.path().equals("/")) {
                r.response().setStatusCode(302).putHeader("Location", "/moved").end();
            } else {
                reply(r, 200, Replies.taskResult(TaskState.WORKING));
            }
        });

        assertThat(Calls.failure(client.getTask(endpoint(s), "task-1", null))).isEqualTo(new HttpStatus(302, null));
        assertThat(s.hits("/moved")).isZero();
    }

    @Test
    void headersLaterThanTheTimeoutFailTheCallAndResetTheRequest() throws Exception {
        Duration late = HASTY_TIMEOUT.multipliedBy(10);
        StubServer s = server(r -> vertx.setTimer(late.toMillis(), t -> reply(r, 200, Replies.taskResult(TaskState.WORKING))));
        long started = System.nanoTime();

        CallFailure failure = Calls.failure(hasty.getTask(endpoint(s), "task-1", null));

        assertThat(failure).isInstanceOf(Transport.class);
        assertThat(((Transport) failure).kind()).isEqualTo(TransportKind.HEADERS_TIMEOUT);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("not waiting for the late answer").isLessThan(late);
        await().until(() -> s.closedConnections.get() == 1);
    }

    @Test
    void aRefusedConnectionIsConnect() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        AgentEndpoint nobody = new AgentEndpoint("http://127.0.0.1:" + port + "/", ProtocolVersion.V1_0, Map.of());

        CallFailure failure = Calls.failure(client.getTask(nobody, "task-1", null));

        assertThat(failure).isInstanceOf(Transport.class);
        assertThat(((Transport) failure).kind()).isEqualTo(TransportKind.CONNECT);
    }

    @Test
    void aConnectionClosedBeforeTheResponseIsLost() throws Exception {
        CallFailure failure = getTaskFailure(r -> r.connection().close());

        assertThat(failure).isInstanceOf(Transport.class);
        assertThat(((Transport) failure).kind()).isEqualTo(TransportKind.LOST);
    }

    @Test
    void aConnectionClosedMidBodyIsLost() throws Exception {
        CallFailure failure = getTaskFailure(r -> {
            r.response().setStatusCode(200).setChunked(true).putHeader("Content-Type", "application/json");
            r.response().write("{\"jsonrpc\":\"2.0\",").onComplete(v -> vertx.setTimer(50, t -> r.connection().close()));
        });

        assertThat(failure).isInstanceOf(Transport.class);
        assertThat(((Transport) failure).kind()).isEqualTo(TransportKind.LOST);
    }

    @Test
    void aBodyThatStallsIsLost() throws Exception {
        StubServer s = server(r -> {
            r.response().setStatusCode(200).setChunked(true).putHeader("Content-Type", "application/json");
            r.response().write("{\"jsonrpc\":");
        });

        CallFailure failure = Calls.failure(hasty.getTask(endpoint(s), "task-1", null));

        assertThat(failure).isInstanceOf(Transport.class);
        assertThat(((Transport) failure).kind()).isEqualTo(TransportKind.LOST);
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 400, 404, 429, 500, 503})
    void aJsonRpcErrorCountsOnAnyStatus(int status) throws Exception {
        assertThat(getTaskFailure(r -> reply(r, status, Replies.error(-32001, "task not found"))))
                .isEqualTo(new RpcError(-32001, "task not found", null, status));
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void rejectedCredentialsAreAnHttpStatusWhateverTheBody(int status) throws Exception {
        assertThat(getTaskFailure(r -> reply(r, status, Replies.error(-31403, "no")))).isEqualTo(new HttpStatus(status, null));
        assertThat(getTaskFailure(r -> r.response().setStatusCode(status).end())).isEqualTo(new HttpStatus(status, null));
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 408, 500, 502, 503, 504})
    void anotherStatusWithoutAJsonRpcErrorIsAnHttpStatus(int status) throws Exception {
        assertThat(getTaskFailure(r -> r.response().setStatusCode(status).end("<html>busy</html>")))
                .isEqualTo(new HttpStatus(status, null));
    }

    @Test
    void retryAfterInSecondsIsRead() throws Exception {
        assertThat(getTaskFailure(r -> r.response().setStatusCode(503).putHeader("Retry-After", "120").end()))
                .isEqualTo(new HttpStatus(503, Duration.ofSeconds(120)));
    }

    @Test
    void retryAfterAsAnHttpDateIsRead() throws Exception {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(120));
        CallFailure failure = getTaskFailure(r -> {
            r.response().putHeader("Retry-After", date);
            reply(r, 429, Replies.error(-32603, "overloaded"));
        });

        assertThat(failure).isInstanceOf(RpcError.class);
        assertThat(((RpcError) failure).code()).isEqualTo(-32603);
        assertThat(failure.retryAfter()).isBetween(Duration.ofSeconds(100), Duration.ofSeconds(121));
    }

    @Test
    void garbageWithA200IsMalformed() throws Exception {
        assertThat(getTaskFailure(r -> reply(r, 200, "<html>hello</html>"))).isInstanceOf(Malformed.class);
        assertThat(getTaskFailure(r -> reply(r, 200, "{\"jsonrpc\":\"2.0\",\"id\":\"x\"}"))).isInstanceOf(Malformed.class);
    }

    @Test
    void aResultThatDoesNotParseIsMalformed() throws Exception {
        assertThat(getTaskFailure(r -> reply(r, 200, "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":[1,2]}")))
                .isInstanceOf(Malformed.class);
        assertThat(getTaskFailure(r -> reply(r, 200, "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":null}")))
                .isInstanceOf(Malformed.class);
    }

    @Test
    void aBodyOverTheCapIsMalformed() throws Exception {
        String mebibyte = "a".repeat(1024 * 1024);
        StubServer s = server(r -> {
            r.response().setStatusCode(200).setChunked(true).putHeader("Content-Type", "application/json");
            r.response().write("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":\"");
            for (int i = 0; i <= A2aAgentClient.MAX_BODY_BYTES / mebibyte.length(); i++) {
                r.response().write(mebibyte);
            }
            r.response().end("\"}");
        });

        assertThat(Calls.failure(client.getTask(endpoint(s), "task-1", null))).isInstanceOf(Malformed.class);
    }

    @Test
    void theCardIsFetchedWithTheIdentityAndA2aVersionEvenForA03Agent() throws Exception {
        StubServer s = server(r -> reply(r, 200, "{\"name\":\"stub\",\"version\":\"1\",\"capabilities\":{\"streaming\":true},"
                + "\"supportedInterfaces\":[{\"url\":\"http://elsewhere/\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"0.3\"}]}"));
        AgentEndpoint e = new AgentEndpoint(s.url("/agent/"), ProtocolVersion.V0_3, Map.of("Authorization", "Bearer t"));

        AgentCard card = Calls.result(client.fetchCard(e));

        assertThat(card.name()).isEqualTo("stub");
        StubServer.Received got = s.received.get(0);
        assertThat(got.method()).isEqualTo("GET");
        assertThat(got.path()).isEqualTo("/agent/.well-known/agent-card.json");
        assertThat(got.headers().get("Authorization")).isEqualTo("Bearer t");
        assertThat(got.headers().get("A2A-Version")).isEqualTo("1.0");
    }

    @Test
    void cardFailuresAreTyped() throws Exception {
        StubServer s = server(r -> {
            switch (r.path()) {
                case "/missing/.well-known/agent-card.json" -> r.response().setStatusCode(404).end();
                case "/moved/.well-known/agent-card.json" -> r.response().setStatusCode(301).putHeader("Location", "/x").end();
                case "/garbage/.well-known/agent-card.json" -> reply(r, 200, "not json");
                case "/notacard/.well-known/agent-card.json" -> reply(r, 200, "[1]");
                default -> { } // never answers
            }
        });

        assertThat(Calls.failure(client.fetchCard(at(s, "/missing")))).isEqualTo(new HttpStatus(404, null));
        assertThat(Calls.failure(client.fetchCard(at(s, "/moved")))).isEqualTo(new HttpStatus(301, null));
        assertThat(Calls.failure(client.fetchCard(at(s, "/garbage")))).isInstanceOf(Malformed.class);
        assertThat(Calls.failure(client.fetchCard(at(s, "/notacard")))).isInstanceOf(Malformed.class);
        CallFailure silent = Calls.failure(hasty.fetchCard(at(s, "/silent")));
        assertThat(((Transport) silent).kind()).isEqualTo(TransportKind.HEADERS_TIMEOUT);
        assertThat(s.hits("/x")).isZero();
    }

    @Test
    void theEndpointsHeadersCannotOverrideTheProtocolHeaders() throws Exception {
        StubServer s = server(r -> reply(r, 200, Replies.taskResult(TaskState.WORKING)));
        AgentEndpoint e03 = new AgentEndpoint(s.url("/"), ProtocolVersion.V0_3,
                Map.of("A2A-Version", "1.0", "Accept", "text/html", "X-User-Id", "u-1"));

        Calls.result(client.getTask(e03, "task-1", null));

        StubServer.Received got = s.received.get(0);
        assertThat(got.headers().contains("A2A-Version")).isFalse();
        assertThat(got.headers().get("Accept")).isEqualTo("application/json");
        assertThat(got.headers().get("X-User-Id")).isEqualTo("u-1");
        assertThat(got.body()).contains("\"method\":\"tasks/get\"");
    }

    private static AgentEndpoint at(StubServer s, String path) {
        return new AgentEndpoint(s.url(path), ProtocolVersion.V1_0, Map.of());
    }
}
