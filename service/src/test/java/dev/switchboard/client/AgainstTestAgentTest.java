package dev.switchboard.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.AwaitDefaults;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The happy paths and the agent's own refusals, against a testkit agent speaking 1.0 and 0.3. */
class AgainstTestAgentTest {

    private static final Map<String, String> IDENTITY = Map.of("Authorization", "Bearer secret-token", "X-Team", "blue");

    static Vertx vertx;
    static TestAgent agent;
    static A2aAgentClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).toCompletionStage().toCompletableFuture().get();
        client = new A2aAgentClient(vertx);
    }

    @AfterAll
    static void stop() throws Exception {
        client.close().toCompletionStage().toCompletableFuture().get();
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }

    @BeforeEach
    void clearRecorder() {
        agent.recorder().clear();
    }

    private static AgentEndpoint endpoint(ProtocolVersion version) {
        return new AgentEndpoint(agent.url(), version, IDENTITY);
    }

    private static SendMessageParams send(String text) {
        return SendMessageParams.of(Message.userText("m-" + UUID.randomUUID(), text));
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void fetchesTheCardWithTheIdentityHeadersAskingFor10(ProtocolVersion version) throws Exception {
        AgentCard card = Calls.result(client.fetchCard(endpoint(version)));

        assertThat(card.name()).isEqualTo("echo");
        assertThat(card.capabilities().streaming()).isTrue();
        RecordedRequest request = agent.recorder().lastRequest();
        assertThat(request.httpMethod()).isEqualTo("GET");
        assertThat(request.path()).isEqualTo("/.well-known/agent-card.json");
        assertThat(request.header("Authorization")).isEqualTo("Bearer secret-token");
        assertThat(request.header("X-Team")).isEqualTo("blue");
        assertThat(request.header("A2A-Version")).isEqualTo("1.0");
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void streamsASendToItsEnd(ProtocolVersion version) throws Exception {
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(endpoint(version), send("/stream 3 20\none two three"), listener);

        listener.awaitEnd();
        assertThat(listener.events).filteredOn(TaskArtifactUpdateEvent.class::isInstance).hasSize(3);
        assertThat(lastState(listener.events)).isEqualTo(TaskState.COMPLETED);
        assertThat(listener.terminals).hasValue(1);
        RecordedRequest request = agent.recorder().lastRequest();
        assertThat(request.rpcMethod()).isEqualTo(version == ProtocolVersion.V1_0 ? "SendStreamingMessage" : "message/stream");
        assertThat(request.path()).isEqualTo("/");
        assertThat(request.text()).isEqualTo("/stream 3 20\none two three");
        assertThat(request.header("Accept")).isEqualTo("text/event-stream");
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
        assertThat(request.header("Authorization")).isEqualTo("Bearer secret-token");
        assertThat(request.header("X-Team")).isEqualTo("blue");
        assertVersionHeader(request, version);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void getsAndCancelsATask(ProtocolVersion version) throws Exception {
        AgentEndpoint e = endpoint(version);
        RecordingListener listener = new RecordingListener();
        StreamHandle stream = client.sendStreaming(e, send("/slow 10000\nlong job"), listener);
        String taskId = firstTaskId(listener);
        stream.close();

        Task running = Calls.result(client.getTask(e, taskId, 5));
        assertThat(running.id()).isEqualTo(taskId);
        assertThat(running.state()).isIn(TaskState.SUBMITTED, TaskState.WORKING);
        Task canceled = Calls.result(client.cancelTask(e, taskId));
        assertThat(canceled.state()).isEqualTo(TaskState.CANCELED);
        assertThat(Calls.result(client.getTask(e, taskId, null)).state()).isEqualTo(TaskState.CANCELED);

        List<RecordedRequest> calls = agent.recorder().rpcRequests();
        assertThat(calls).extracting(RecordedRequest::rpcMethod).containsExactlyElementsOf(version == ProtocolVersion.V1_0
                ? List.of("SendStreamingMessage", "GetTask", "CancelTask", "GetTask")
                : List.of("message/stream", "tasks/get", "tasks/cancel", "tasks/get"));
        for (RecordedRequest call : calls.subList(1, calls.size())) {
            assertThat(call.header("Accept")).isEqualTo("application/json");
            assertThat(call.header("Content-Type")).isEqualTo("application/json");
            assertThat(call.header("Authorization")).isEqualTo("Bearer secret-token");
            assertVersionHeader(call, version);
        }
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void subscribesToARunningTask(ProtocolVersion version) throws Exception {
        AgentEndpoint e = endpoint(version);
        RecordingListener first = new RecordingListener();
        StreamHandle stream = client.sendStreaming(e, send("/stream 3 300\nalpha beta gamma"), first);
        String taskId = firstTaskId(first);
        stream.close();

        RecordingListener followed = new RecordingListener();
        client.subscribe(e, taskId, followed);

        followed.awaitEnd();
        assertThat(followed.events.get(0)).isInstanceOf(Task.class);
        assertThat(lastState(followed.events)).isEqualTo(TaskState.COMPLETED);
        RecordedRequest request = agent.recorder().lastRequest();
        assertThat(request.rpcMethod()).isEqualTo(version == ProtocolVersion.V1_0 ? "SubscribeToTask" : "tasks/resubscribe");
        assertThat(request.header("Accept")).isEqualTo("text/event-stream");
        assertVersionHeader(request, version);
    }

    @Test
    void listsTheTasksOfAContextIn10() throws Exception {
        AgentEndpoint e = endpoint(ProtocolVersion.V1_0);
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(e, send("hello"), listener);
        listener.awaitEnd();
        Task task = (Task) listener.events.get(0);

        ListTasksResult page = Calls.result(client.listTasks(e,
                new ListTasksParams(task.contextId(), null, 10, null, 10, null, null, null)));

        assertThat(page.tasks()).extracting(Task::id).containsExactly(task.id());
        RecordedRequest request = agent.recorder().lastRequest();
        assertThat(request.rpcMethod()).isEqualTo("ListTasks");
        assertThat(request.header("A2A-Version")).isEqualTo("1.0");
    }

    @Test
    void neverAsksA03AgentToListTasks() throws Exception {
        Throwable cause = Calls.cause(client.listTasks(endpoint(ProtocolVersion.V0_3),
                new ListTasksParams("ctx", null, 10, null, 10, null, null, null)));

        assertThat(cause).isInstanceOf(IllegalStateException.class);
        assertThat(agent.recorder().size()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void anAgentErrorBeforeTheStreamIsAnRpcError(ProtocolVersion version) {
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(endpoint(version), send("/error -32004 busy"), listener);

        assertThat(listener.awaitFailure()).isEqualTo(new CallFailure.RpcError(-32004, "busy", null));
        assertThat(listener.afterEvents).isFalse();
        assertThat(listener.events).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void rejectedCredentialsAreAnHttpStatus(ProtocolVersion version) {
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(endpoint(version), send("/http 401"), listener);

        assertThat(listener.awaitFailure()).isEqualTo(new CallFailure.HttpStatus(401, null));
        assertThat(listener.afterEvents).isFalse();
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aRedirectFromTheAgentIsNotFollowed(ProtocolVersion version) {
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(endpoint(version), send("/http 307"), listener);

        assertThat(listener.awaitFailure()).isEqualTo(new CallFailure.HttpStatus(307, null));
        assertThat(agent.recorder().rpcRequests()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aStreamCutMidwayIsLostAfterEvents(ProtocolVersion version) {
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(endpoint(version), send("/drop 2 /stream 3 50\na b c"), listener);

        CallFailure failure = listener.awaitFailure();
        assertThat(failure).isInstanceOf(CallFailure.Transport.class);
        assertThat(((CallFailure.Transport) failure).kind()).isEqualTo(CallFailure.TransportKind.LOST);
        assertThat(listener.afterEvents).isTrue();
        assertThat(listener.events).hasSize(2);
    }

    @Test
    void closingAStreamSuppressesEveryLaterCallback() throws Exception {
        // opened, closed and counted on the context its callbacks run on, so no callback can slip in between
        Context context = vertx.getOrCreateContext();
        RecordingListener listener = new RecordingListener();
        CompletableFuture<StreamHandle> stream = new CompletableFuture<>();
        // 100 chunks 100 ms apart: the stream cannot end on its own before the close, however slow the machine
        context.runOnContext(v -> stream.complete(client.sendStreaming(endpoint(ProtocolVersion.V1_0),
                send("/stream 100 100\n" + "word ".repeat(100)), listener)));
        await().until(() -> !listener.events.isEmpty());

        CompletableFuture<Integer> seen = new CompletableFuture<>();
        context.runOnContext(v -> {
            stream.join().close();
            seen.complete(listener.events.size());
        });
        int seenAtClose = seen.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);

        // nothing may arrive after the close: the condition has to hold for the whole second
        await().during(Duration.ofSeconds(1))
                .until(() -> listener.events.size() == seenAtClose && listener.terminals.get() == 0);
    }

    @Test
    void everyCallHasItsOwnJsonRpcId() throws Exception {
        AgentEndpoint e = endpoint(ProtocolVersion.V1_0);
        RecordingListener listener = new RecordingListener();
        client.sendStreaming(e, send("hello"), listener);
        listener.awaitEnd();
        String taskId = ((Task) listener.events.get(0)).id();
        for (int i = 0; i < 3; i++) {
            Calls.result(client.getTask(e, taskId, null));
        }

        List<RecordedRequest> calls = agent.recorder().rpcRequests();
        assertThat(calls).hasSize(4);
        assertThat(new HashSet<>(calls.stream().map(r -> r.id().asText()).toList())).hasSize(4);
        assertThat(calls).allSatisfy(r -> assertThat(r.id().isTextual()).isTrue());
    }

    @Test
    void callbacksRunOnTheContextThatMadeTheCall() throws Exception {
        Context context = vertx.getOrCreateContext();
        RecordingListener listener = new RecordingListener();
        AtomicReference<Context> futureContext = new AtomicReference<>();
        context.runOnContext(v -> {
            client.sendStreaming(endpoint(ProtocolVersion.V1_0), send("/stream 2 10\nx y"), listener);
            client.fetchCard(endpoint(ProtocolVersion.V1_0)).onComplete(r -> futureContext.set(Vertx.currentContext()));
        });

        listener.awaitEnd();
        await().until(() -> futureContext.get() != null);
        assertThat(listener.contexts).isNotEmpty().allSatisfy(c -> assertThat(c).isSameAs(context));
        assertThat(futureContext.get()).isSameAs(context);
    }

    @Test
    void callsGoToTheEndpointAsGivenNeverToTheCardsInterfaces() throws Exception {
        Recorder recorder = new Recorder();
        Router main = Router.router(vertx);
        main.route("/agents/x/*").subRouter(
                TestAgent.router(vertx, TestAgentOptions.echo("mounted"), "http://127.0.0.1:9/elsewhere", recorder));
        HttpServer server = vertx.createHttpServer().requestHandler(main).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get();
        try {
            AgentEndpoint e = new AgentEndpoint("http://127.0.0.1:" + server.actualPort() + "/agents/x",
                    ProtocolVersion.V1_0, IDENTITY);
            AgentCard card = Calls.result(client.fetchCard(e));
            assertThat(card.interfaces().get(0).url()).isEqualTo("http://127.0.0.1:9/elsewhere");

            RecordingListener listener = new RecordingListener();
            client.sendStreaming(e, send("hello"), listener);
            listener.awaitEnd();

            assertThat(recorder.requests()).extracting(RecordedRequest::path)
                    .containsExactly("/agents/x/.well-known/agent-card.json", "/agents/x");
        } finally {
            server.close().toCompletionStage().toCompletableFuture().get();
        }
    }

    private static void assertVersionHeader(RecordedRequest request, ProtocolVersion version) {
        if (version == ProtocolVersion.V1_0) {
            assertThat(request.header("A2A-Version")).isEqualTo("1.0");
        } else {
            assertThat(request.headers().contains("A2A-Version")).isFalse();
        }
    }

    private static String firstTaskId(RecordingListener listener) {
        await().until(() -> !listener.events.isEmpty());
        StreamEvent first = listener.events.get(0);
        assertThat(first).isInstanceOf(Task.class);
        return ((Task) first).id();
    }

    private static TaskState lastState(List<StreamEvent> events) {
        StreamEvent last = events.get(events.size() - 1);
        if (last instanceof TaskStatusUpdateEvent update) {
            return update.status().state();
        }
        return ((Task) last).state();
    }
}
