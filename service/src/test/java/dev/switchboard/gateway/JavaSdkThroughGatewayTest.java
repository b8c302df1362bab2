package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.testing.InteropTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.a2a.A2A;
import io.a2a.client.Client;
import io.a2a.client.ClientEvent;
import io.a2a.client.TaskEvent;
import io.a2a.client.TaskUpdateEvent;
import io.a2a.client.config.ClientConfig;
import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.JdkA2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.jsonrpc.JSONRPCTransportConfig;
import io.a2a.spec.AgentCard;
import io.a2a.spec.Artifact;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stock a2a-java 0.3.3.Final client, given only the gateway's card URL for an agent, sends and
 * streams through the gateway (G10's rewritten card, G1 forwarding, G8 streaming).
 */
@ServerTest
@InteropTest
class JavaSdkThroughGatewayTest {

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent agent;

    private final List<ClientEvent> events = new CopyOnWriteArrayList<>();
    private final List<Throwable> streamErrors = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        agent = h.agent(TestAgentOptions.echo("java-echo"));
        h.backend("java-echo", agent.url()).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @BeforeEach
    void clear() {
        agent.recorder().clear();
        events.clear();
        streamErrors.clear();
    }

    /** The card as the SDK resolves it from the gateway's card URL, and nothing else. */
    private static AgentCard card() throws Exception {
        return new A2ACardResolver(new JdkA2AHttpClient(), h.base(), "/a2a/java-echo/.well-known/agent-card.json")
                .getAgentCard();
    }

    private Client client(boolean streaming) throws Exception {
        BiConsumer<ClientEvent, AgentCard> consumer = (event, ignored) -> events.add(event);
        return Client.builder(card())
                .clientConfig(new ClientConfig.Builder().setStreaming(streaming).build())
                .withTransport(JSONRPCTransport.class, new JSONRPCTransportConfig())
                .addConsumer(consumer)
                // a2a-java reports a stream's normal end as accept(null). It also cancels its own request as soon
                // as it sees the final event (SSEEventListener), and the JDK may report that as a read error:
                // only failures before the final event count
                .streamingErrorHandler(error -> {
                    if (error != null && !sawFinal()) {
                        streamErrors.add(error);
                    }
                })
                .build();
    }

    private static String text(List<Artifact> artifacts) {
        StringBuilder text = new StringBuilder();
        artifacts.forEach(a -> a.parts().forEach(p -> text.append(((TextPart) p).getText())));
        return text.toString();
    }

    private static List<RecordedRequest> rpcCalls() {
        List<RecordedRequest> calls = agent.recorder().rpcRequests();
        assertThat(calls).allSatisfy(r -> assertThat(r.header("X-Switchboard-Caller-ID")).isEqualTo("127.0.0.1"));
        return calls;
    }

    @Test
    void theResolvedCardPointsAtTheGateway() throws Exception {
        AgentCard card = card();

        assertThat(card.name()).isEqualTo("java-echo");
        assertThat(card.url()).isEqualTo(h.base() + "/a2a/java-echo");
        assertThat(card.preferredTransport()).isEqualTo("JSONRPC");
        assertThat(card.capabilities().streaming()).isTrue();
    }

    @Test
    void sendMessageThroughTheGateway() throws Exception {
        Client client = client(false);
        Task fetched;
        try {
            client.sendMessage(A2A.toUserMessage("hello from a2a-java through the gateway"));
            Task sent = ((TaskEvent) events.get(0)).getTask();
            fetched = client.getTask(new TaskQueryParams(sent.getId()));
        } finally {
            client.close();
        }

        assertThat(events).singleElement().isInstanceOf(TaskEvent.class);
        Task task = ((TaskEvent) events.get(0)).getTask();
        assertThat(task.getStatus().state()).isEqualTo(TaskState.COMPLETED);
        assertThat(text(task.getArtifacts())).isEqualTo("hello from a2a-java through the gateway");
        assertThat(fetched.getId()).isEqualTo(task.getId());
        assertThat(fetched.getStatus().state()).isEqualTo(TaskState.COMPLETED);
        assertThat(rpcCalls()).extracting(RecordedRequest::rpcMethod).containsExactly("message/send", "tasks/get");
    }

    @Test
    void streamMessageThroughTheGateway() throws Exception {
        Client client = client(true);
        try {
            client.sendMessage(A2A.toUserMessage("/stream 3 30\nstreamed to java through the gateway"));
            await().until(() -> events.stream().anyMatch(
                    e -> e instanceof TaskUpdateEvent u && u.getUpdateEvent() instanceof TaskStatusUpdateEvent s && s.isFinal()));
        } finally {
            client.close();
        }

        assertThat(streamErrors).isEmpty();
        assertThat(events.get(0)).isInstanceOf(TaskEvent.class);
        StringBuilder streamed = new StringBuilder();
        events.stream()
                .filter(e -> e instanceof TaskUpdateEvent u && u.getUpdateEvent() instanceof TaskArtifactUpdateEvent)
                .map(e -> (TaskArtifactUpdateEvent) ((TaskUpdateEvent) e).getUpdateEvent())
                .forEach(a -> streamed.append(text(List.of(a.getArtifact()))));
        assertThat(streamed).hasToString("streamed to java through the gateway");
        TaskUpdateEvent last = (TaskUpdateEvent) events.get(events.size() - 1);
        assertThat(last.getTask().getStatus().state()).isEqualTo(TaskState.COMPLETED);
        assertThat(rpcCalls()).extracting(RecordedRequest::rpcMethod).containsExactly("message/stream");
    }

    private boolean sawFinal() {
        return events.stream().anyMatch(e -> e instanceof TaskUpdateEvent u
                && u.getUpdateEvent() instanceof TaskStatusUpdateEvent st && st.isFinal());
    }
}
