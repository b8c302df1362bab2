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
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stream rules, each against a server built to break it. */
class StreamRulesTest extends StubServerTest {

    /** Sends a streaming message to a server answering with {@code handler}. */
    private RecordingListener stream(Handler<HttpServerRequest> handler) throws Exception {
        return stream(client, handler);
    }

    private RecordingListener stream(A2aAgentClient caller, Handler<HttpServerRequest> handler) throws Exception {
        StubServer s = server(handler);
        RecordingListener listener = new RecordingListener();
        caller.sendStreaming(endpoint(s), SendMessageParams.of(Message.userText("m-1", "hi")), listener);
        return listener;
    }

    private static AgentEndpoint endpoint(StubServer s) {
        return new AgentEndpoint(s.url("/"), ProtocolVersion.V1_0, Map.of("Authorization", "Bearer t"));
    }

    private static HttpServerResponse sse(HttpServerRequest request) {
        return request.response().setStatusCode(200).setChunked(true).putHeader("Content-Type", "text/event-stream");
    }

    private static String data(String json) {
        return "data: " + json + "\n\n";
    }

    /**
     * Answers {@code request} on the server's context once the test completes {@code gate}, if the client
     * has not reset it by then: a server timer would race the test, and a busy machine can let it win.
     */
    private static void answerAfter(Promise<Void> gate, HttpServerRequest request, Handler<HttpServerRequest> answer) {
        Context context = Vertx.currentContext();
        gate.future().onComplete(v -> context.runOnContext(x -> {
            if (!request.response().closed()) {
                answer.handle(request);
            }
        }));
    }

    @Test
    void readsEventsUntilTheAgentClosesTheStream() throws Exception {
        RecordingListener listener = stream(r -> sse(r)
                .write(": keepalive\r\n\r\n")
                .compose(v -> r.response().write(data(Replies.taskEvent(TaskState.SUBMITTED))))
                // a data line split across chunks, with CRLF line ends
                .compose(v -> r.response().write("data: " + Replies.taskEvent(TaskState.WORKING).substring(0, 20)))
                .compose(v -> r.response().write(Replies.taskEvent(TaskState.WORKING).substring(20) + "\r\n\r\n"))
                // the last event closed by the end of the body, not by a blank line
                .compose(v -> r.response().end("data: " + Replies.taskEvent(TaskState.COMPLETED))));

        listener.awaitEnd();
        assertThat(listener.events).extracting(e -> ((Task) e).state())
                .containsExactly(TaskState.SUBMITTED, TaskState.WORKING, TaskState.COMPLETED);
        assertThat(listener.terminals).hasValue(1);
    }

    @Test
    void sendsStreamingMessageWithTheStreamHeaders() throws Exception {
        StubServer s = server(r -> sse(r).end(data(Replies.taskEvent(TaskState.COMPLETED))));
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(endpoint(s), SendMessageParams.of(Message.userText("m-1", "hi")), listener);

        listener.awaitEnd();
        StubServer.Received got = s.received.get(0);
        assertThat(got.method()).isEqualTo("POST");
        assertThat(got.path()).isEqualTo("/");
        assertThat(got.body()).contains("\"method\":\"SendStreamingMessage\"");
        assertThat(got.headers().get("Accept")).isEqualTo("text/event-stream");
        assertThat(got.headers().get("Content-Type")).isEqualTo("application/json");
        assertThat(got.headers().get("A2A-Version")).isEqualTo("1.0");
        assertThat(got.headers().get("Authorization")).isEqualTo("Bearer t");
    }

    @Test
    void aJsonErrorWithHttp200BeforeTheStreamIsAnRpcError() throws Exception {
        RecordingListener listener = stream(r -> r.response().setStatusCode(200)
                .putHeader("Content-Type", "application/json").end(Replies.error(-32004, "busy")));

        assertThat(listener.awaitFailure()).isEqualTo(new RpcError(-32004, "busy", null));
        assertThat(listener.afterEvents).isFalse();
    }

    @Test
    void aPlainJsonResultIsTheWholeStream() throws Exception {
        RecordingListener listener = stream(r -> r.response().setStatusCode(200)
                .putHeader("Content-Type", "application/json").end(Replies.taskEvent(TaskState.COMPLETED)));

        listener.awaitEnd();
        assertThat(listener.events).hasSize(1);
    }

    @Test
    void anErrorEventAfterEventsIsAnRpcErrorAfterEvents() throws Exception {
        RecordingListener listener = stream(r -> sse(r).write(data(Replies.taskEvent(TaskState.WORKING)))
                .compose(v -> r.response().end("event: error\n" + data(Replies.error(-32603, "agent broke")))));

        assertThat(listener.awaitFailure()).isEqualTo(new RpcError(-32603, "agent broke", null));
        assertThat(listener.afterEvents).isTrue();
        assertThat(listener.events).hasSize(1);
        assertThat(listener.terminals).hasValue(1);
    }

    @Test
    void anErrorEventWithABareErrorObjectBeforeAnyEventIsAnRpcError() throws Exception {
        // a2a-js answers a 0.3 tasks/resubscribe this way: HTTP 200, SSE, one event: error
        RecordingListener listener = stream(r -> sse(r).end("event: error\ndata: {\"code\":-32001,\"message\":\"gone\"}\n\n"));

        assertThat(listener.awaitFailure()).isEqualTo(new RpcError(-32001, "gone", null));
        assertThat(listener.afterEvents).isFalse();
    }

    @Test
    void anErrorMemberInADataEventIsAnRpcError() throws Exception {
        RecordingListener listener = stream(r -> sse(r).write(data(Replies.taskEvent(TaskState.WORKING)))
                .compose(v -> r.response().write(data(Replies.error(-32001, "task not found")))));

        assertThat(listener.awaitFailure()).isEqualTo(new RpcError(-32001, "task not found", null));
        assertThat(listener.afterEvents).isTrue();
    }

    @Test
    void aResetMidStreamIsLostAfterEvents() throws Exception {
        RecordingListener listener = stream(r -> sse(r).write(data(Replies.taskEvent(TaskState.WORKING)))
                .onComplete(v -> vertx.setTimer(50, t -> r.response().reset())));

        CallFailure failure = listener.awaitFailure();
        assertThat(failure).isInstanceOf(Transport.class);
        assertThat(((Transport) failure).kind()).isEqualTo(TransportKind.LOST);
        assertThat(listener.afterEvents).isTrue();
        assertThat(listener.events).hasSize(1);
    }

    @Test
    void aConnectionClosedBeforeAnyEventIsLostWithoutEvents() throws Exception {
        RecordingListener listener = stream(r -> sse(r).write(": opened\n\n")
                .onComplete(v -> vertx.setTimer(50, t -> r.connection().close())));

        CallFailure failure = listener.awaitFailure();
        assertThat(((Transport) failure).kind()).isEqualTo(TransportKind.LOST);
        assertThat(listener.afterEvents).isFalse();
    }

    @Test
    void headersLaterThanTheTimeoutFailTheStreamAndResetTheRequest() throws Exception {
        StubServer s = server(r -> vertx.setTimer(HASTY_TIMEOUT.multipliedBy(10).toMillis(),
                t -> sse(r).end(data(Replies.taskEvent(TaskState.COMPLETED)))));
        RecordingListener listener = new RecordingListener();
        hasty.sendStreaming(endpoint(s), SendMessageParams.of(Message.userText("m-1", "hi")), listener);

        CallFailure failure = listener.awaitFailure();
        assertThat(((Transport) failure).kind()).isEqualTo(TransportKind.HEADERS_TIMEOUT);
        assertThat(listener.afterEvents).isFalse();
        await().until(() -> s.closedConnections.get() == 1);
    }

    @Test
    void aStreamMayStayQuietLongerThanTheHeadersTimeoutOnceItHasStarted() throws Exception {
        RecordingListener listener = stream(hasty, r -> sse(r).write(data(Replies.taskEvent(TaskState.WORKING)))
                .onComplete(v -> vertx.setTimer(HASTY_TIMEOUT.multipliedBy(2).toMillis(),
                        t -> r.response().end(data(Replies.taskEvent(TaskState.COMPLETED))))));

        listener.awaitEnd();
        assertThat(listener.events).hasSize(2);
    }

    @Test
    void aRedirectIsNotFollowed() throws Exception {
        StubServer s = server(r -> {
            if (r.path().equals("/")) {
                r.response().setStatusCode(307).putHeader("Location", "/moved").end();
            } else {
                sse(r).end(data(Replies.taskEvent(TaskState.COMPLETED)));
            }
        });
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(endpoint(s), SendMessageParams.of(Message.userText("m-1", "hi")), listener);

        assertThat(listener.awaitFailure()).isEqualTo(new HttpStatus(307, null));
        assertThat(s.hits("/moved")).isZero();
    }

    @Test
    void a5xxIsAnHttpStatusWithItsRetryAfter() throws Exception {
        RecordingListener listener = stream(r -> r.response().setStatusCode(503).putHeader("Retry-After", "7").end("down"));

        assertThat(listener.awaitFailure()).isEqualTo(new HttpStatus(503, Duration.ofSeconds(7)));
        assertThat(listener.afterEvents).isFalse();
    }

    @Test
    void anRpcErrorInTheStreamCarriesTheResponsesRetryAfter() throws Exception {
        RecordingListener listener = stream(r -> {
            sse(r).putHeader("Retry-After", "30");
            r.response().end(data(Replies.error(-32004, "busy")));
        });

        assertThat(listener.awaitFailure()).isEqualTo(new RpcError(-32004, "busy", Duration.ofSeconds(30)));
    }

    @Test
    void rejectedCredentialsAreAnHttpStatus() throws Exception {
        RecordingListener listener = stream(r -> r.response().setStatusCode(403)
                .putHeader("Content-Type", "application/json").end(Replies.error(-31403, "no")));

        assertThat(listener.awaitFailure()).isEqualTo(new HttpStatus(403, null));
    }

    @Test
    void anEventThatIsNotJsonIsMalformed() throws Exception {
        RecordingListener listener = stream(r -> sse(r).write(data(Replies.taskEvent(TaskState.WORKING)))
                .compose(v -> r.response().write("data: <html>oops</html>\n\n")));

        assertThat(listener.awaitFailure()).isInstanceOf(Malformed.class);
        assertThat(listener.afterEvents).isTrue();
    }

    @Test
    void anEventWhoseResultDoesNotParseIsMalformed() throws Exception {
        RecordingListener listener = stream(r -> sse(r).end(data("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{\"nothing\":1}}")));

        assertThat(listener.awaitFailure()).isInstanceOf(Malformed.class);
        assertThat(listener.afterEvents).isFalse();
    }

    @Test
    void anEventOverFourMebibytesIsMalformedAndTheRequestReset() throws Exception {
        StubServer s = server(r -> sse(r).write("data: \"" + "a".repeat(A2aAgentClient.MAX_EVENT_BYTES) + "\"\n\n"));
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(endpoint(s), SendMessageParams.of(Message.userText("m-1", "hi")), listener);

        assertThat(listener.awaitFailure()).isInstanceOf(Malformed.class);
        await().until(() -> s.closedConnections.get() == 1);
    }

    @Test
    void closeResetsTheRequestAndSilencesTheListener() throws Exception {
        // the server's last event waits for the test: it goes out after the close, never before it
        Promise<Void> closed = Promise.promise();
        StubServer s = server(r -> sse(r).write(data(Replies.taskEvent(TaskState.WORKING)))
                .onComplete(v -> answerAfter(closed, r, req -> req.response().end(data(Replies.taskEvent(TaskState.COMPLETED))))));
        RecordingListener listener = new RecordingListener();
        StreamHandle handle = client.sendStreaming(endpoint(s), SendMessageParams.of(Message.userText("m-1", "hi")), listener);
        await().until(() -> listener.events.size() == 1);

        handle.close();
        closed.complete();

        await().until(() -> s.closedConnections.get() == 1);
        // past the moment the server sent (or tried to send) its last event, still nothing
        await().during(Duration.ofMillis(700))
                .until(() -> listener.events.size() == 1 && listener.terminals.get() == 0);
    }

    @Test
    void closeBeforeTheResponseSilencesTheListener() throws Exception {
        // the server answers only once the test has closed the stream
        Promise<Void> closed = Promise.promise();
        StubServer s = server(r -> answerAfter(closed, r, req -> sse(req).end(data(Replies.taskEvent(TaskState.COMPLETED)))));
        RecordingListener listener = new RecordingListener();
        StreamHandle handle = client.sendStreaming(endpoint(s), SendMessageParams.of(Message.userText("m-1", "hi")), listener);
        await().until(() -> s.received.size() == 1);

        handle.close();
        closed.complete();

        await().during(Duration.ofMillis(600))
                .until(() -> listener.events.isEmpty() && listener.terminals.get() == 0);
    }
}
