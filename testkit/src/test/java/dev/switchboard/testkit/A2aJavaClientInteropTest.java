package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.ProtocolVersion;
import io.a2a.A2A;
import io.a2a.client.Client;
import io.a2a.client.ClientEvent;
import io.a2a.client.TaskEvent;
import io.a2a.client.TaskUpdateEvent;
import io.a2a.client.config.ClientConfig;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.jsonrpc.JSONRPCTransportConfig;
import io.a2a.spec.AgentCard;
import io.a2a.spec.Artifact;
import io.a2a.spec.EventKind;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The a2a-java 0.3.3.Final client (0.3 only) against a testkit agent. */
@Tag("interop")
class A2aJavaClientInteropTest extends AgentTestSupport {

    private final List<ClientEvent> events = new CopyOnWriteArrayList<>();
    private final List<Throwable> streamErrors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void clear() {
        agent.recorder().clear();
        events.clear();
        streamErrors.clear();
    }

    private Client client(boolean streaming) throws Exception {
        AgentCard card = A2A.getAgentCard(agent.url());
        BiConsumer<ClientEvent, AgentCard> consumer = (event, ignored) -> events.add(event);
        return Client.builder(card)
                .clientConfig(new ClientConfig.Builder().setStreaming(streaming).build())
                .withTransport(JSONRPCTransport.class, new JSONRPCTransportConfig())
                .addConsumer(consumer)
                // a2a-java reports a stream's normal end as accept(null); only real failures are kept. Once it has
                // seen the final event it closes the exchange itself, and the JDK may report that as a read
                // error: only failures before the final event count
                .streamingErrorHandler(error -> {
                    if (error != null && !sawFinal()) {
                        streamErrors.add(error);
                    }
                })
                .build();
    }

    private boolean sawFinal() {
        return events.stream().anyMatch(e -> e instanceof TaskUpdateEvent u
                && u.getUpdateEvent() instanceof TaskStatusUpdateEvent st && st.isFinal());
    }

    private static String text(List<Artifact> artifacts) {
        StringBuilder text = new StringBuilder();
        for (Artifact artifact : artifacts) {
            artifact.parts().forEach(part -> text.append(((TextPart) part).getText()));
        }
        return text.toString();
    }

    @Test
    void cardResolvesToTheZeroThreeEndpoint() throws Exception {
        AgentCard card = A2A.getAgentCard(agent.url());

        assertThat(card.url()).isEqualTo(agent.url());
        assertThat(card.preferredTransport()).isEqualTo("JSONRPC");
        assertThat(card.capabilities().streaming()).isTrue();
        assertThat(card.name()).isEqualTo("echo");
    }

    @Test
    void sendMessageReturnsTheCompletedTaskWithTheEchoedText() throws Exception {
        Client client = client(false);
        try {
            client.sendMessage(A2A.toUserMessage("hello from a2a-java"));
        } finally {
            client.close();
        }

        assertThat(events).singleElement().isInstanceOf(TaskEvent.class);
        Task task = ((TaskEvent) events.get(0)).getTask();
        assertThat(task.getStatus().state()).isEqualTo(TaskState.COMPLETED);
        assertThat(text(task.getArtifacts())).isEqualTo("hello from a2a-java");
        assertThat(agent.recorder().rpcMethods()).containsExactly("message/send");
        assertThat(agent.recorder().lastRequest().header("A2A-Version")).isNull();
    }

    @Test
    void streamingMessageDeliversTheEventsAndEndsCompleted() throws Exception {
        Client client = client(true);
        try {
            client.sendMessage(A2A.toUserMessage("/stream 3 20\nstreamed to java"));
            Awaitility.await().until(() -> events.stream().anyMatch(
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
        assertThat(streamed).hasToString("streamed to java");
        TaskUpdateEvent last = (TaskUpdateEvent) events.get(events.size() - 1);
        assertThat(last.getTask().getStatus().state()).isEqualTo(TaskState.COMPLETED);
        assertThat(text(last.getTask().getArtifacts())).isEqualTo("streamed to java");
        assertThat(agent.recorder().rpcMethods()).containsExactly("message/stream");
    }

    @Test
    void transportSendAndGetTaskRoundTrip() throws Exception {
        JSONRPCTransport transport = new JSONRPCTransport(agent.url());
        Message message = A2A.toUserMessage("/ask Which one?");

        EventKind result = transport.sendMessage(new MessageSendParams(message, null, null), null);
        Task asked = (Task) result;
        Task fetched = transport.getTask(new TaskQueryParams(asked.getId(), 10), null);

        assertThat(asked.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
        assertThat(((TextPart) asked.getStatus().message().getParts().get(0)).getText()).isEqualTo("Which one?");
        assertThat(fetched.getHistory()).extracting(Message::getMessageId).contains(message.getMessageId());
        assertThat(transport.getTask(new TaskQueryParams(asked.getId()), null).getHistory()).isEmpty();
        assertThat(new WireClient(agent.url(), ProtocolVersion.V0_3).sendText("still fine").path("kind").asText()).isEqualTo("task");
    }
}
