package dev.switchboard.bridge.faults;

import static dev.switchboard.bridge.faults.FaultBridge.BACKOFF_MAX;
import static dev.switchboard.bridge.faults.FaultBridge.GIVE_UP_AFTER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgentOptions;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The seed's Methods table, last column: what happens when the agent does not implement SubscribeToTask,
 * ListTasks or GetTask (each answered -32601 by a testkit agent).
 */
@ServerTest
class MethodsFaultsTest extends FaultTest {

    @Override
    FaultBridge.Builder agents(FaultBridge.Builder builder) {
        TestAgentOptions v10 = TestAgentOptions.echo("v10").withVersions(ProtocolVersion.V1_0);
        return builder
                .agent("nosubscribe", v10.withUnimplemented(A2aMethod.SUBSCRIBE_TO_TASK))
                .agent("nolist", v10.withUnimplemented(A2aMethod.LIST_TASKS))
                .agent("noget", v10.withUnimplemented(A2aMethod.GET_TASK));
    }

    @Test
    void withoutSubscribeToTaskADroppedTaskIsReadAgainWithGetTaskUntilItEnds() {
        Sent sent = chat.newThread("nosubscribe", "/drop 2 /slow 1500\nread, not followed");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("read, not followed");
        List<String> methods = calls("nosubscribe").stream().map(RecordedRequest::rpcMethod).toList();
        assertThat(methods).as("asked once, then polled").containsOnlyOnce("SubscribeToTask");
        assertThat(methods.stream().filter("GetTask"::equals).count()).isGreaterThanOrEqualTo(3);
        assertThat(sends("nosubscribe", sent.messageId())).hasSize(1);
    }

    @Test
    void withoutListTasksTheLookupIsRetriedThenTheTurnFailsAfterGiveUpAfterAndIsNeverSentBlind() {
        Sent first = chat.newThread("nolist", "a context first");
        chat.awaitState(first, "completed");
        Sent sent = chat.send(first.threadId(), "/first 1 /http 503\nlost");

        Post post = chat.awaitFinal(sent);
        assertThat(post.state()).isEqualTo("not_delivered");
        assertThat(chat.notices(first.threadId(), sent.messageId())).containsExactly(Notices.unreachable());
        List<RecordedRequest> sends = sends("nolist", sent.messageId());
        assertThat(sends).as("not sent again without a lookup").hasSize(1);
        List<RecordedRequest> lists = calls("nolist").stream().filter(r -> "ListTasks".equals(r.rpcMethod())).toList();
        assertThat(lists).as("the lookup retried").hasSizeGreaterThanOrEqualTo(3);
        Post notice = chat.posts(first.threadId(), sent.messageId(), "notice").get(0);
        assertThat(Duration.between(sends.get(0).receivedAt(), notice.createdAt()))
                .isGreaterThanOrEqualTo(GIVE_UP_AFTER.minusMillis(150));
    }

    @Test
    void withoutGetTaskATurnWhoseStreamDidNotEndWithAFullTaskCannotFinish() {
        // the stream ends on the completed status update, not on a full Task: only GetTask could settle it
        Sent sent = chat.newThread("noget", "shown, never settled");

        chat.awaitPosts(sent.threadId(), "the answer shown",
                p -> p.stream().anyMatch(x -> "agent".equals(x.kind()) && "shown, never settled".equals(x.text())));
        int before = getTasks();
        Awaitility.await("the turn stays unfinished while GetTask is tried again").during(GIVE_UP_AFTER)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !ChatApi.FINAL.contains(state(sent)));
        assertThat(getTasks() - before).as("read again with a backoff")
                .isGreaterThanOrEqualTo((int) (GIVE_UP_AFTER.toMillis() / BACKOFF_MAX.toMillis()) / 2);

        // with a full Task at the end it needs no GetTask at all
        Sent full = chat.newThread("noget", "/fulltask\nsettled by the stream");
        chat.awaitState(full, "completed");
    }

    private String state(Sent sent) {
        return chat.userPost(sent.threadId(), sent.messageId()).state();
    }

    private int getTasks() {
        return (int) calls("noget").stream().filter(r -> "GetTask".equals(r.rpcMethod())).count();
    }

    private List<RecordedRequest> calls(String agent) {
        return bridge.recorder(agent).rpcRequests();
    }
}
