package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.artifact;
import static dev.switchboard.bridge.engine.Wire.card03;
import static dev.switchboard.bridge.engine.Wire.dropped;
import static dev.switchboard.bridge.engine.Wire.http;
import static dev.switchboard.bridge.engine.Wire.page;
import static dev.switchboard.bridge.engine.Wire.rpc;
import static dev.switchboard.bridge.engine.Wire.task;
import static dev.switchboard.bridge.engine.Wire.update;
import static dev.switchboard.bridge.engine.Wire.withHistory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Seed 000, "Methods": one test per row, and the ListTasks paragraph (B5). */
class MethodsRowsTest {

    @Test
    @DisplayName("Methods: SendStreamingMessage (message/stream) — for every turn and every answer to a question")
    void methods_sendStreamingMessageForEveryTurnAndEveryAnswer() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        Effect.SendStream answer = h.answered("a1", "Tuesday");
        h.stream(task("t1", "c1", TaskState.COMPLETED, "Booked for Tuesday"));
        h.completedTurn("m2", "thanks", "t2", "c1", "You're welcome");

        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsExactly("m1", "a1", "m2");
        assertThat(answer.message().taskId()).isEqualTo("t1");
    }

    @Test
    @DisplayName("Methods: GetTask (tasks/get) — when a stream ends or drops before the task settles; before following "
            + "a task after a restart; when a typed reply arrives for a question on a2a; when a cancel fails. "
            + "Without it a turn whose stream does not end with a full task cannot finish")
    void methods_getTaskWhenAStreamEndsOrDropsAfterARestartOnATypedReplyAndWhenACancelFails() {
        // a stream that ends before the task settles (an update, not a full Task, said completed)
        EngineHarness ends = EngineHarness.a2a();
        ends.firstTurn("m1", "hi");
        ends.stream(task("t1", "c1", TaskState.WORKING), artifact("t1", "c1", "a1", "hello", false),
                update("t1", "c1", TaskState.COMPLETED));
        assertThat(ends.nextCall(Duration.ofSeconds(1))).isInstanceOf(Effect.GetTask.class);
        ends.read(task("t1", "c1", TaskState.COMPLETED, "hello"));
        assertThat(ends.finished("m1")).isTrue();

        // a stream that drops
        EngineHarness drops = EngineHarness.a2a();
        drops.firstTurn("m1", "hi");
        drops.event(task("t1", "c1", TaskState.WORKING));
        drops.drop(dropped());
        assertThat(drops.nextCall(Duration.ofSeconds(1))).isInstanceOfSatisfying(Effect.GetTask.class,
                g -> assertThat(g.taskId()).isEqualTo("t1"));

        // after a restart, before following the task
        EngineHarness restart = EngineHarness.a2a();
        restart.firstTurn("m1", "hi");
        restart.event(task("t1", "c1", TaskState.WORKING));
        restart.restart();
        assertThat(restart.expect(Effect.GetTask.class).taskId()).isEqualTo("t1");
        assertThat(EngineHarness.of(restart.last, Effect.Subscribe.class)).isEmpty();

        // a typed reply to a question on a2a
        EngineHarness typed = EngineHarness.a2a();
        typed.askedQuestion("m1", "q1");
        typed.chat("a1", "Tuesday");
        assertThat(typed.expect(Effect.GetTask.class).taskId()).isEqualTo("t1");

        // a cancel that fails
        EngineHarness cancel = EngineHarness.a2a();
        cancel.askedQuestion("m1", "q1");
        cancel.advance(Duration.ofHours(1));
        cancel.call(Effect.CancelTask.class);
        cancel.fail(http(500));
        assertThat(cancel.expect(Effect.GetTask.class).taskId()).isEqualTo("t1");

        // an agent without GetTask: the turn cannot finish (it is read again, backing off, and never settles)
        EngineHarness none = EngineHarness.a2a();
        none.firstTurn("m1", "hi");
        none.agent(call -> call instanceof Effect.GetTask
                ? EngineHarness.replyFailure(call, rpc(JsonRpcError.METHOD_NOT_FOUND)) : null);
        none.stream(task("t1", "c1", TaskState.WORKING), update("t1", "c1", TaskState.COMPLETED));
        none.advance(Duration.ofHours(3));
        assertThat(none.finished("m1")).isFalse();
        assertThat(none.notices()).isEmpty();
        assertThat(none.gapsOf(Effect.GetTask.class)).allMatch(g -> g.compareTo(Duration.ofMinutes(1)) <= 0);
    }

    @Test
    @DisplayName("Methods: SubscribeToTask (tasks/resubscribe) — after a dropped stream, when GetTask shows the task "
            + "still running. Without it live text stops; the task is read again with GetTask, with a backoff of up "
            + "to a minute, until it ends")
    void methods_subscribeAfterADropWhenRunningElseGetTaskWithBackoffUpToAMinute() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.event(artifact("t1", "c1", "a1", "part one", false));
        h.drop(dropped());
        h.nextCall(Duration.ofSeconds(1));
        h.read(task("t1", "c1", TaskState.WORKING, "part one"));
        assertThat(h.expect(Effect.Subscribe.class).taskId()).isEqualTo("t1");

        // the agent does not implement it
        h.fail(rpc(JsonRpcError.METHOD_NOT_FOUND));
        h.agent(call -> call instanceof Effect.GetTask
                ? EngineHarness.replyRead(call, task("t1", "c1", TaskState.WORKING, "part one")) : null);
        h.advance(Duration.ofMinutes(10));
        assertThat(h.all(Effect.Subscribe.class)).as("not asked again").hasSize(1);
        List<Duration> gaps = h.gapsOf(Effect.GetTask.class);
        assertThat(gaps).allMatch(g -> g.compareTo(Duration.ofMinutes(1)) <= 0);
        assertThat(gaps.subList(gaps.size() - 3, gaps.size())).containsOnly(Duration.ofMinutes(1));
        assertThat(h.all(Effect.GetTask.class).size()).isBetween(10, 20);

        // until it ends
        h.agent(call -> call instanceof Effect.GetTask
                ? EngineHarness.replyRead(call, task("t1", "c1", TaskState.COMPLETED, "part one, part two")) : null);
        h.advance(Duration.ofMinutes(1));
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(h.all(Effect.ShowAnswer.class)).last().extracting(Effect.ShowAnswer::text)
                .isEqualTo("part one, part two");
    }

    @Test
    @DisplayName("Methods: CancelTask (tasks/cancel) — when a question times out; for a question the Binding does not "
            + "allow or the dialect cannot show; for a task with no sign of life for an hour after its stream was "
            + "lost; after the agent rejects an answer. Without it the cancel is retried a few times and reported as failed")
    void methods_cancelOnQuestionTimeoutDisallowedOrUnshowableQuestionSilenceAndRejectedAnswer() {
        // a question times out
        EngineHarness timeout = EngineHarness.a2a();
        timeout.askedQuestion("m1", "q1");
        timeout.advance(Duration.ofMinutes(59));
        assertThat(timeout.all(Effect.CancelTask.class)).isEmpty();
        timeout.advance(Duration.ofMinutes(1));
        assertThat(timeout.call(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(timeout.notices()).containsExactly(Notices.QUESTION_TIMED_OUT);

        // a question the Binding does not allow
        EngineHarness disallowed = new EngineHarness(Platform.WEB, Dialect.A2A, false, Duration.ofHours(1));
        disallowed.firstTurn("m1", "hi");
        disallowed.event(task("t1", "c1", Wire.asking("q1", EngineHarness.T0, "Which day?")));
        assertThat(disallowed.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(disallowed.notices()).containsExactly(Notices.QUESTION_NOT_ALLOWED);
        assertThat(disallowed.all(Effect.AskQuestion.class)).isEmpty();

        // a question the dialect cannot show (a2a shows only text)
        EngineHarness unshowable = EngineHarness.a2a();
        unshowable.firstTurn("m1", "hi");
        unshowable.event(task("t1", "c1", Wire.status(TaskState.INPUT_REQUIRED,
                Wire.agentParts("q1", List.<Part>of(Wire.data("{\"form\":1}"))))));
        assertThat(unshowable.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(unshowable.notices()).containsExactly(Notices.QUESTION_UNSHOWABLE);

        // no sign of life for an hour after the stream was lost
        EngineHarness silent = EngineHarness.a2a();
        silent.firstTurn("m1", "hi");
        silent.event(task("t1", "c1", TaskState.WORKING));
        silent.agent(call -> {
            Task stuck = task("t1", "c1", TaskState.WORKING);
            if (call instanceof Effect.GetTask) {
                return EngineHarness.replyRead(call, stuck);
            }
            if (call instanceof Effect.Subscribe) {
                return List.of(new Input.StreamEventReceived(EngineHarness.genOf(call), stuck)); // then silence
            }
            return null;
        });
        silent.drop(dropped());
        silent.advance(Duration.ofMinutes(59));
        assertThat(silent.all(Effect.CancelTask.class)).isEmpty();
        silent.advance(Duration.ofMinutes(6));
        assertThat(silent.all(Effect.CancelTask.class)).singleElement()
                .extracting(Effect.CancelTask::taskId).isEqualTo("t1");
        assertThat(silent.notices()).containsExactly(Notices.NO_SIGN_OF_LIFE);

        // the agent rejects an answer
        EngineHarness rejected = EngineHarness.a2a();
        rejected.askedQuestion("m1", "q1");
        rejected.answered("a1", "Tuesday");
        rejected.fail(rpc(JsonRpcError.INTERNAL_ERROR));
        assertThat(rejected.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(rejected.notices()).containsExactly(Notices.ANSWER_REJECTED);

        // an agent without CancelTask: retried a few times, then reported; the task keeps running
        rejected.agent(call -> {
            if (call instanceof Effect.CancelTask) {
                return EngineHarness.replyFailure(call, rpc(JsonRpcError.METHOD_NOT_FOUND));
            }
            if (call instanceof Effect.GetTask) {
                return EngineHarness.replyRead(call, task("t1", "c1", TaskState.WORKING));
            }
            return null;
        });
        rejected.fail(rpc(JsonRpcError.METHOD_NOT_FOUND));
        rejected.advance(Duration.ofMinutes(5));
        assertThat(rejected.all(Effect.CancelTask.class)).hasSize(ContractDurations.DEFAULTS.cancelAttempts());
        assertThat(rejected.notices()).containsExactly(Notices.ANSWER_REJECTED, Notices.CANCEL_FAILED);
        assertThat(rejected.finished("m1")).isTrue();
    }

    @Test
    @DisplayName("Methods: ListTasks (1.0 only) — before a turn whose outcome is unknown is sent again into an existing "
            + "context, and on recovery after a restart. Without it the lookup is retried, then the turn fails after 15 minutes")
    void methods_listTasksBeforeResendingAnUnknownOutcomeAndOnRecovery() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "second");
        h.fail(http(502));
        assertThat(h.nextCall(Duration.ofMinutes(1))).isInstanceOfSatisfying(Effect.ListTasks.class, l -> {
            assertThat(l.contextId()).isEqualTo("c1");
            assertThat(l.pageToken()).isNull();
        });
        h.listed(page("", withHistory(task("t0", "c1", TaskState.COMPLETED), "m0")));
        assertThat(h.expect(Effect.SendStream.class).message().messageId()).as("not found: sent again").isEqualTo("m1");

        // on recovery after a restart
        h.restart();
        assertThat(h.expect(Effect.ListTasks.class).contextId()).isEqualTo("c1");

        // an agent without ListTasks: the lookup is retried, then the turn fails after 15 minutes
        h.agent(call -> call instanceof Effect.ListTasks
                ? EngineHarness.replyFailure(call, rpc(JsonRpcError.METHOD_NOT_FOUND)) : null);
        h.fail(rpc(JsonRpcError.METHOD_NOT_FOUND));
        h.advance(Duration.ofMinutes(14));
        assertThat(h.finished("m1")).isFalse();
        assertThat(h.all(Effect.ListTasks.class).size()).isGreaterThan(20);
        assertThat(h.sends()).as("never sent without the lookup").extracting(s -> s.message().messageId())
                .containsExactly("m0", "m1", "m1");
        h.advance(Duration.ofMinutes(2));
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.notices()).singleElement().asString().contains("the agent could not be reached");
    }

    @Test
    @DisplayName("Methods, ListTasks: called with the session's contextId, following nextPageToken for up to 100 pages")
    void methods_listTasksFollowsNextPageTokenForUpToOneHundredPages() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "second");
        h.fail(dropped());
        h.nextCall(Duration.ofMinutes(1));
        for (int i = 1; i < 100; i++) {
            h.listed(page("p" + i, withHistory(task("x" + i, "c1", TaskState.COMPLETED), "other" + i)));
            assertThat(h.expect(Effect.ListTasks.class)).satisfies(l -> {
                assertThat(l.contextId()).isEqualTo("c1");
                assertThat(l.pageToken()).startsWith("p");
            });
        }
        assertThat(h.all(Effect.ListTasks.class)).hasSize(100);
        h.listed(page("p100", withHistory(task("x100", "c1", TaskState.COMPLETED), "other")));
        assertThat(EngineHarness.of(h.last, Effect.ListTasks.class)).as("no 101st page").isEmpty();
        assertThat(h.expect(Effect.SendStream.class).message().messageId()).isEqualTo("m1");
    }

    @Test
    @DisplayName("Methods, ListTasks: a turn counts as found only if a task's history holds a message with the "
            + "turn's messageId — then it is followed, not sent again")
    void methods_listTasksFindsATurnOnlyByItsMessageIdInHistory() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "second");
        h.fail(http(503));
        h.nextCall(Duration.ofMinutes(1));
        h.listed(page("next", withHistory(task("t0", "c1", TaskState.COMPLETED), "m0", "agent-reply")));
        h.call(Effect.ListTasks.class);
        h.listed(page("", withHistory(task("t1", "c1", TaskState.WORKING), "m1")));

        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsExactly("m0", "m1");
        assertThat(h.expect(Effect.Subscribe.class).taskId()).as("found running: followed").isEqualTo("t1");

        // found already finished: settled from the list
        EngineHarness done = EngineHarness.a2a();
        done.completedTurn("m0", "first", "t0", "c1", "ok");
        done.chat("m1", "second");
        done.fail(http(503));
        done.nextCall(Duration.ofMinutes(1));
        done.listed(page("", withHistory(task("t1", "c1", TaskState.COMPLETED, "the answer"), "m1")));
        assertThat(done.finished("m1")).isTrue();
        assertThat(done.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(done.sends()).hasSize(2);
    }

    @Test
    @DisplayName("Methods, ListTasks: a list without history makes every turn look absent, so it is sent, and may run, again")
    void methods_listWithoutHistoryMakesTheTurnLookAbsentSoItIsSentAgain() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "second");
        h.fail(http(500));
        h.nextCall(Duration.ofMinutes(1));
        h.listed(page("", task("t1", "c1", TaskState.WORKING), task("t0", "c1", TaskState.COMPLETED)));
        assertThat(h.expect(Effect.SendStream.class).message().messageId()).isEqualTo("m1");
    }

    @Test
    @DisplayName("Methods, ListTasks: an A2A 0.3 agent is never asked; its turns are always sent again")
    void methods_a03AgentIsNeverAskedListTasks() {
        EngineHarness h = EngineHarness.a2a();
        h.chat("m0", "first");
        h.card(card03());
        h.stream(task("t0", "c1", TaskState.COMPLETED, "ok"));
        h.chat("m1", "second");
        h.fail(http(500));
        assertThat(h.nextCall(Duration.ofMinutes(1))).isInstanceOfSatisfying(Effect.SendStream.class,
                s -> assertThat(s.message().messageId()).isEqualTo("m1"));
        h.restart();
        assertThat(h.expect(Effect.SendStream.class).message().messageId()).isEqualTo("m1");
        assertThat(h.all(Effect.ListTasks.class)).isEmpty();
    }
}
