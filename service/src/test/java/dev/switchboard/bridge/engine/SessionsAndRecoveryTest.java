package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.card03;
import static dev.switchboard.bridge.engine.Wire.http;
import static dev.switchboard.bridge.engine.Wire.page;
import static dev.switchboard.bridge.engine.Wire.rpc;
import static dev.switchboard.bridge.engine.Wire.task;
import static dev.switchboard.bridge.engine.Wire.withHistory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** B7 (sessions: one task per context, queue in order, a repeated messageId is one turn) and B14 (recovery). */
class SessionsAndRecoveryTest {

    @Test
    @DisplayName("B7: replies queue behind the session's task and are sent in order, one at a time")
    void sessions_repliesQueueAndAreSentInOrder() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "one");
        for (String id : new String[] {"m2", "m3", "m4"}) {
            h.chat(id, id);
        }
        assertThat(h.sends()).hasSize(1);
        h.stream(task("t1", "c1", TaskState.COMPLETED, "1"));
        h.stream(task("t2", "c1", TaskState.COMPLETED, "2"));
        h.stream(task("t3", "c1", TaskState.FAILED));
        h.stream(task("t4", "c1", TaskState.COMPLETED, "4"));
        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsExactly("m1", "m2", "m3", "m4");
        assertThat(h.session.idle()).isTrue();
    }

    @Test
    @DisplayName("B7: a repeated messageId is the same turn — delivered again while queued or running, "
            + "it is never run twice by us (after it ended, the driver finds it among the thread's posts: "
            + "WebChatBridgeTest.aRepeatedMessageIdIsTheSameTurn)")
    void sessions_repeatedMessageIdIsTheSameTurn() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "one");
        h.chat("m1", "one");
        h.chat("m2", "two");
        h.chat("m2", "two");
        assertThat(h.session.turns()).extracting(Turn::messageId).containsExactly("m1", "m2");
        h.stream(task("t1", "c1", TaskState.COMPLETED, "1"));
        h.chat("m2", "two");
        h.stream(task("t2", "c1", TaskState.COMPLETED, "2"));
        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsExactly("m1", "m2");
        assertThat(h.session.idle()).isTrue();

        // an answer delivered twice is one answer
        EngineHarness q = EngineHarness.a2a();
        q.askedQuestion("m1", "q1");
        q.answered("a1", "Tuesday");
        q.chat("a1", "Tuesday");
        assertThat(q.session.turns()).hasSize(1);
        assertThat(q.sends()).hasSize(2);
    }

    @Test
    @DisplayName("B14: after a restart, a turn whose task is known is read with GetTask before it is followed")
    void recovery_knownTaskIsReadBeforeItIsFollowed() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.event(Wire.artifact("t1", "c1", "a1", "half", false));
        long before = h.session.gen();
        h.restart();
        assertThat(h.expect(Effect.GetTask.class).taskId()).isEqualTo("t1");
        assertThat(h.session.gen()).isGreaterThan(before);

        // the old stream's late events are stale
        h.feed(new Input.StreamEventReceived(before, task("t1", "c1", TaskState.COMPLETED, "stale")));
        assertThat(h.last).isEmpty();

        h.read(task("t1", "c1", TaskState.WORKING, "half and more"));
        assertThat(h.expect(Effect.Subscribe.class).taskId()).isEqualTo("t1");
        assertThat(h.all(Effect.ShowAnswer.class)).last().extracting(Effect.ShowAnswer::text).isEqualTo("half and more");

        // a task that finished while we were down is settled by the read
        EngineHarness done = EngineHarness.a2a();
        done.firstTurn("m1", "hi");
        done.event(task("t1", "c1", TaskState.WORKING));
        done.restart();
        done.read(task("t1", "c1", TaskState.COMPLETED, "all done"));
        assertThat(done.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(done.sends()).hasSize(1);
    }

    @Test
    @DisplayName("B14: after a restart, a turn of unknown outcome is looked up with ListTasks on a 1.0 agent with a context, "
            + "found and followed, or sent again")
    void recovery_unknownOutcomeIsLookedUpOnA10AgentWithAContext() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "second"); // sent; the service died before any event
        h.restart();
        assertThat(h.expect(Effect.ListTasks.class).contextId()).isEqualTo("c1");
        h.listed(page("", withHistory(task("t1", "c1", TaskState.WORKING), "m1")));
        assertThat(h.expect(Effect.Subscribe.class).taskId()).isEqualTo("t1");
        assertThat(h.sends()).hasSize(2);

        EngineHarness absent = EngineHarness.a2a();
        absent.completedTurn("m0", "first", "t0", "c1", "ok");
        absent.chat("m1", "second");
        absent.restart();
        absent.listed(page(""));
        assertThat(absent.expect(Effect.SendStream.class).message().messageId()).isEqualTo("m1");

        // a 1.0 thread's first turn has no context to look in: sent again
        EngineHarness first = EngineHarness.a2a();
        first.firstTurn("m1", "hi");
        first.restart();
        assertThat(first.expect(Effect.SendStream.class).message().messageId()).isEqualTo("m1");
        assertThat(first.all(Effect.ListTasks.class)).isEmpty();
    }

    @Test
    @DisplayName("B14: after a restart, a 0.3 agent's turn of unknown outcome is always sent again")
    void recovery_a03TurnIsAlwaysSentAgain() {
        EngineHarness h = EngineHarness.a2a();
        h.chat("m0", "first");
        h.card(card03());
        h.stream(task("t0", "c1", TaskState.COMPLETED, "ok"));
        h.chat("m1", "second");
        h.restart();
        assertThat(h.expect(Effect.SendStream.class).message()).satisfies(m -> {
            assertThat(m.messageId()).isEqualTo("m1");
            assertThat(m.contextId()).isEqualTo("c1");
        });
        assertThat(h.all(Effect.ListTasks.class)).isEmpty();
    }

    @Test
    @DisplayName("B14: after a restart, queued turns wait their turn")
    void recovery_queuedTurnsWait() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "one");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.chat("m2", "two");
        h.chat("m3", "three");
        h.restart();
        assertThat(h.last).filteredOn(EngineHarness::isCall).singleElement().isInstanceOf(Effect.GetTask.class);
        h.read(task("t1", "c1", TaskState.COMPLETED, "1"));
        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsExactly("m1", "m2");
        assertThat(h.views("m3")).containsExactly(TurnView.QUEUED);
    }

    @Test
    @DisplayName("B14: after a restart, waits, questions, pauses and cancels resume where they were")
    void recovery_waitsQuestionsPausesAndCancelsResume() {
        // a busy wait keeps its time and its 2-minute notice
        EngineHarness busy = EngineHarness.a2a();
        busy.firstTurn("m1", "hi");
        busy.fail(rpc(JsonRpcError.UNSUPPORTED_OPERATION, Duration.ofMinutes(10)));
        busy.advance(Duration.ofMinutes(1));
        busy.restart();
        busy.advance(Duration.ofMinutes(1));
        assertThat(busy.notices()).containsExactly(Notices.BUSY);
        assertThat(busy.sends()).hasSize(1);
        busy.advance(Duration.ofMinutes(8));
        assertThat(busy.sends()).hasSize(2);

        // a question keeps its deadline
        EngineHarness question = EngineHarness.a2a();
        question.askedQuestion("m1", "q1");
        question.advance(Duration.ofMinutes(30));
        question.restart();
        question.advance(Duration.ofMinutes(29));
        assertThat(question.all(Effect.CancelTask.class)).isEmpty();
        question.advance(Duration.ofMinutes(1));
        assertThat(question.all(Effect.CancelTask.class)).hasSize(1);

        // auth-required stays paused, with nothing to do
        EngineHarness auth = EngineHarness.a2a();
        auth.firstTurn("m1", "hi");
        auth.stream(task("t1", "c1", TaskState.AUTH_REQUIRED));
        auth.restart();
        assertThat(auth.last).isEmpty();

        // a cancel in flight is asked again
        EngineHarness cancel = EngineHarness.a2a();
        cancel.askedQuestion("m1", "q1");
        cancel.advance(Duration.ofHours(1));
        cancel.restart();
        assertThat(cancel.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        cancel.cancelAccepted(task("t1", "c1", TaskState.CANCELED));
        assertThat(cancel.finished("m1")).isTrue();

        // an answer in flight: the task is read; still asking, the answer is sent again
        EngineHarness answer = EngineHarness.a2a();
        answer.askedQuestion("m1", "q1");
        answer.answered("a1", "Tuesday");
        answer.restart();
        answer.read(task("t1", "c1", answer.question));
        assertThat(answer.expect(Effect.SendStream.class).message().messageId()).isEqualTo("a1");

        // a card fetch in flight is fetched again
        EngineHarness card = EngineHarness.a2a();
        card.chat("m1", "hi");
        card.restart();
        assertThat(card.expect(Effect.FetchCard.class)).isNotNull();
        card.fail(http(503));
        assertThat(card.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.FetchCard.class);
    }
}
