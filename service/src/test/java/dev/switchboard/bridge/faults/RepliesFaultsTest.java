package dev.switchboard.bridge.faults;

import static dev.switchboard.bridge.faults.FaultBridge.GIVE_UP_AFTER;
import static dev.switchboard.bridge.faults.FaultBridge.NO_SIGN_OF_LIFE;
import static dev.switchboard.bridge.faults.FaultBridge.SETTLE_DELAY;
import static dev.switchboard.bridge.faults.FaultBridge.SILENCE_LIMIT;
import static dev.switchboard.bridge.faults.FaultBridge.channel;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgentOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The seed's Replies table and the Methods that settle a turn (GetTask, SubscribeToTask, CancelTask after
 * an hour without a sign of life), against agents whose replies break each rule: what the thread shows
 * and what the agent was asked. Durations shortened: 5 min → 1.5 s, 1 s → 300 ms, 1 h → 3 s, 15 min → 3 s.
 */
@ServerTest
class RepliesFaultsTest extends FaultTest {

    private static final Duration SLACK = Duration.ofMillis(150);

    @Override
    FaultBridge.Builder agents(FaultBridge.Builder builder) {
        return builder.echoPerVersion()
                .agent("forgetful", TestAgentOptions.echo("forgetful").withDefaultBehavior("/newcontext"));
    }

    // ================= a bare Message; events without ids =================

    @Test
    void aReplyThatNamesNoTaskIsAnUnknownOutcomeSentAgainUntilItFails() {
        // a bare Message, events without task or context ids, events without a contextId: each in a thread of
        // its own, all at once (each takes giveUpAfter)
        Map<String, Sent> sent = new LinkedHashMap<>();
        for (String directive : List.of("/message", "/noids", "/nocontext")) {
            sent.put(directive, chat.newThread("v10", directive + "\nnobody will see this"));
        }
        for (var e : sent.entrySet()) {
            String directive = e.getKey();
            Sent s = e.getValue();
            Post post = chat.awaitFinal(s);
            assertThat(post.state()).as(directive).isEqualTo("not_delivered");
            assertThat(chat.notices(s.threadId(), s.messageId())).as(directive).containsExactly(Notices.unreachable());
            assertThat(chat.answer(s.threadId(), s.messageId())).as("%s: text outside artifacts is never shown", directive)
                    .isNull();
            List<RecordedRequest> sends = sends("v10", s.messageId());
            assertThat(sends).as("%s: sent again, with the same messageId", directive).hasSizeGreaterThanOrEqualTo(3);
            Post notice = chat.posts(s.threadId(), s.messageId(), "notice").get(0);
            assertThat(Duration.between(sends.get(0).receivedAt(), notice.createdAt())).as(directive)
                    .isGreaterThanOrEqualTo(GIVE_UP_AFTER);
            if (!directive.equals("/message")) {
                assertThat(bridge.recorder("v10").executedMessageIds().stream().filter(s.messageId()::equals).count())
                        .as("%s: the task ran on every send: it may run again", directive).isEqualTo(sends.size());
            }
        }
    }

    @Test
    void aBareMessageInAThreadWithAContextIsLookedUpWithListTasksBeforeItIsSentAgain() {
        Sent first = chat.newThread("v10", "a context first");
        chat.awaitState(first, "completed");
        Sent sent = chat.send(first.threadId(), "/message");

        chat.awaitFinal(sent);
        List<RecordedRequest> all = bridge.recorder("v10").rpcRequests();
        List<RecordedRequest> sends = sends("v10", sent.messageId());
        assertThat(all.subList(all.indexOf(sends.get(0)), all.indexOf(sends.get(1)))).extracting(RecordedRequest::rpcMethod)
                .containsExactly("SendStreamingMessage", "ListTasks");
    }

    // ================= the contextId =================

    @Test
    void aDifferentContextIdIsToldEveryTimeAndTheNewContextIsKept() {
        Sent first = chat.newThread("forgetful", "one");
        chat.awaitState(first, "completed");
        Sent second = chat.send(first.threadId(), "two");
        chat.awaitState(second, "completed");
        Sent third = chat.send(first.threadId(), "three");
        chat.awaitState(third, "completed");

        assertThat(chat.notices(first.threadId(), first.messageId())).as("a first turn has nothing to lose").isEmpty();
        assertThat(chat.notices(first.threadId(), second.messageId())).containsExactly(Notices.CONTEXT_CHANGED);
        assertThat(chat.notices(first.threadId(), third.messageId())).containsExactly(Notices.CONTEXT_CHANGED);
        assertThat(chat.answer(first.threadId(), third.messageId())).isEqualTo("three");
        // each turn is answered in a fresh context, which the next turn carries
        String sentWithSecond = sends("forgetful", second.messageId()).get(0).contextId();
        String sentWithThird = sends("forgetful", third.messageId()).get(0).contextId();
        assertThat(sentWithSecond).isNotNull();
        assertThat(sentWithThird).as("the new context is kept").isNotNull().isNotEqualTo(sentWithSecond);
    }

    // ================= no artifact =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aTaskThatCompletesWithNoArtifactTextPostsTheNotice(ProtocolVersion v) {
        Sent sent = chat.newThread(channel(v), "/empty");

        chat.awaitState(sent, "completed");
        assertThat(chat.notices(sent.threadId(), sent.messageId())).containsExactly("The agent finished without any output.");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isNull();
    }

    // ================= how a stream ends =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aStreamThatEndsOnAStatusUpdateIsSettledByGetTaskAfterTheSettleDelay(ProtocolVersion v) {
        Sent sent = chat.newThread(channel(v), "settle me");

        chat.awaitState(sent, "completed");
        List<RecordedRequest> after = after(channel(v), sent.messageId());
        assertThat(after).extracting(RecordedRequest::rpcMethod)
                .containsExactly(v == ProtocolVersion.V1_0 ? "GetTask" : "tasks/get");
        assertThat(Duration.between(sends(channel(v), sent.messageId()).get(0).receivedAt(), after.get(0).receivedAt()))
                .isGreaterThanOrEqualTo(SETTLE_DELAY);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aStreamThatEndsWithTheFullSettledTaskNeedsNoGetTask(ProtocolVersion v) {
        Sent sent = chat.newThread(channel(v), "/fulltask\nsettled properly");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("settled properly");
        assertThat(after(channel(v), sent.messageId())).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aStreamThatEndsCleanlyWhileTheTaskRunsIsReadWithGetTaskThenFollowedWithSubscribeToTask(ProtocolVersion v) {
        Sent sent = chat.newThread(channel(v), "/end 1 /slow 800\nstill going");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("still going");
        assertThat(sends(channel(v), sent.messageId())).hasSize(1);
        List<RecordedRequest> after = after(channel(v), sent.messageId());
        assertThat(after).extracting(RecordedRequest::rpcMethod).startsWith(
                v == ProtocolVersion.V1_0 ? "GetTask" : "tasks/get",
                v == ProtocolVersion.V1_0 ? "SubscribeToTask" : "tasks/resubscribe");
        assertThat(Duration.between(sends(channel(v), sent.messageId()).get(0).receivedAt(), after.get(0).receivedAt()))
                .isGreaterThanOrEqualTo(SETTLE_DELAY);
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void aStreamDroppedMidWayIsReadWithGetTaskThenFollowedWhileTheTaskRuns(ProtocolVersion v) {
        Sent sent = chat.newThread(channel(v), "/drop 2 /stream 4 250\nsurvives the drop");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("survives the drop");
        assertThat(sends(channel(v), sent.messageId())).as("a known task is never sent again").hasSize(1);
        assertThat(after(channel(v), sent.messageId())).extracting(RecordedRequest::rpcMethod).startsWith(
                v == ProtocolVersion.V1_0 ? "GetTask" : "tasks/get",
                v == ProtocolVersion.V1_0 ? "SubscribeToTask" : "tasks/resubscribe");
    }

    @Test
    void aStreamDroppedAfterTheTaskFinishedIsSettledByGetTaskAlone() {
        Sent sent = chat.newThread("v10", "/drop 3 /echo\nfinished anyway");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("finished anyway");
        assertThat(after("v10", sent.messageId())).extracting(RecordedRequest::rpcMethod).containsExactly("GetTask");
    }

    @Test
    void aStreamSilentForLongerThanTheSilenceLimitIsCutAndTheTaskReadAgain() {
        Sent sent = chat.newThread("v10", "/mute 2 /slow 200\nsaid nothing on the stream");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("said nothing on the stream");
        List<RecordedRequest> after = after("v10", sent.messageId());
        assertThat(after).extracting(RecordedRequest::rpcMethod).containsExactly("GetTask");
        assertThat(Duration.between(sends("v10", sent.messageId()).get(0).receivedAt(), after.get(0).receivedAt()))
                .as("cut after the silence limit").isGreaterThanOrEqualTo(SILENCE_LIMIT.minus(SLACK));
    }

    @Test
    void aStreamWithAnEventWithinEverySilenceLimitIsNeverCut() {
        // working updates every 500 ms for 3 s: the silence limit (1.5 s) never passes without an event,
        // though none of them changes what the thread shows
        Sent sent = chat.newThread("v10", "/heartbeat 6 500\nlong tool call done");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("long tool call done");
        List<RecordedRequest> after = after("v10", sent.messageId());
        assertThat(after).extracting(RecordedRequest::rpcMethod).as("only the settling read, at the end")
                .containsExactly("GetTask");
        assertThat(Duration.between(sends("v10", sent.messageId()).get(0).receivedAt(), after.get(0).receivedAt()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(3000));
    }

    @Test
    void aTaskWithNoSignOfLifeForTooLongAfterItsStreamWasLostIsCancelled() {
        Sent sent = chat.newThread("v10", "/drop 2 /slow 60000\nnever");

        Post post = chat.awaitFinal(sent);
        assertThat(post.state()).isEqualTo("canceled");
        assertThat(chat.notices(sent.threadId(), sent.messageId())).containsExactly(Notices.NO_SIGN_OF_LIFE);
        List<RecordedRequest> after = after("v10", sent.messageId());
        assertThat(after).extracting(RecordedRequest::rpcMethod).contains("GetTask", "SubscribeToTask").last()
                .isEqualTo("CancelTask");
        RecordedRequest cancel = after.get(after.size() - 1);
        assertThat(Duration.between(sends("v10", sent.messageId()).get(0).receivedAt(), cancel.receivedAt()))
                .isGreaterThanOrEqualTo(NO_SIGN_OF_LIFE.minus(SLACK));
    }

    // ================= helpers =================

    /** The calls after the last send of {@code messageId} that are not sends (GetTask, SubscribeToTask, CancelTask…). */
    private List<RecordedRequest> after(String agent, String messageId) {
        List<RecordedRequest> all = bridge.recorder(agent).rpcRequests();
        List<RecordedRequest> sends = sends(agent, messageId);
        return all.subList(all.indexOf(sends.get(sends.size() - 1)) + 1, all.size()).stream()
                .filter(r -> r.messageId() == null).toList();
    }
}
