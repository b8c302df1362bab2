package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.artifact;
import static dev.switchboard.bridge.engine.Wire.task;
import static dev.switchboard.bridge.engine.Wire.update;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Seed 000, "Replies": one test per row, and the artifact paragraph (B6, B7). */
class RepliesRowsTest {

    @Test
    @DisplayName("Replies: Answer a send with task events — a reply that is a bare Message names no task, so the outcome "
            + "is unknown; the turn is sent again until it fails after 15 minutes with 'the agent could not be reached'")
    void replies_bareMessageIsUnknownOutcomeResentUntilFifteenMinutes() {
        EngineHarness h = EngineHarness.a2a();
        h.agent(call -> call instanceof Effect.SendStream
                ? EngineHarness.replyStream(call, Message.agentText("r", "I am a bare message")) : null);
        h.firstTurn("m1", "hi");

        h.advance(Duration.ofMinutes(14).plusSeconds(59));
        assertThat(h.finished("m1")).isFalse();
        assertThat(h.sends().size()).as("sent again with a backoff of up to 30 s").isBetween(30, 40);
        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsOnly("m1");
        assertThat(h.notices()).isEmpty();

        h.advance(Duration.ofSeconds(31));
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.notices()).containsExactly("The message was not delivered: the agent could not be reached.");
        assertThat(h.lastView("m1")).isEqualTo(TurnView.NOT_DELIVERED);
        assertThat(h.all(Effect.ShowAnswer.class)).as("a bare Message's text is not shown").isEmpty();

        // into an existing 1.0 context, each resend is preceded by the lookup
        EngineHarness ctx = EngineHarness.a2a();
        ctx.completedTurn("m0", "first", "t0", "c1", "ok");
        ctx.chat("m1", "second");
        ctx.event(Message.agentText("r", "bare"));
        assertThat(ctx.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.ListTasks.class);
    }

    @Test
    @DisplayName("Replies: Answer a send with task events — the bare-Message rule applies only while no task is known: "
            + "a bare Message in the middle of a stream whose task is known is ignored (its text is not shown), and the "
            + "turn is not sent again")
    void replies_bareMessageMidStreamOfAKnownTaskIsIgnored() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.event(Message.agentText("r", "a progress note"));
        assertThat(h.last).as("nothing happens").isEmpty();
        assertThat(h.turn("m1").phase()).isEqualTo(Phase.STREAMING);
        h.stream(artifact("t1", "c1", "a1", "the answer", false), task("t1", "c1", TaskState.COMPLETED, "the answer"));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(h.sends()).as("not sent again").hasSize(1);
        assertThat(h.all(Effect.ListTasks.class)).isEmpty();
        assertThat(h.all(Effect.CloseStream.class)).isEmpty();
        assertThat(h.all(Effect.ShowAnswer.class)).extracting(Effect.ShowAnswer::text).containsOnly("the answer");
        assertThat(h.notices()).isEmpty();

        // on a subscription to the known task, the same: ignored, the subscription stays open
        EngineHarness sub = EngineHarness.a2a();
        sub.firstTurn("m1", "hi");
        sub.stream(task("t1", "c1", TaskState.WORKING));
        sub.nextCall(Duration.ofSeconds(1));
        sub.read(task("t1", "c1", TaskState.WORKING));
        sub.expect(Effect.Subscribe.class);
        sub.event(Message.agentText("r", "still here"));
        assertThat(sub.last).isEmpty();
        sub.stream(task("t1", "c1", TaskState.COMPLETED, "done"));
        assertThat(sub.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(sub.sends()).hasSize(1);
        assertThat(sub.all(Effect.GetTask.class)).hasSize(1);
    }

    @Test
    @DisplayName("Replies: Name the task and its contextId on its events — otherwise, as for a bare Message, the "
            + "outcome is unknown and the turn is sent again")
    void replies_eventsWithoutTaskOrContextAreUnknownOutcome() {
        for (Task nameless : List.of(task(null, "c1", TaskState.WORKING), task("t1", null, TaskState.WORKING),
                task("t1", "", TaskState.WORKING))) {
            EngineHarness h = EngineHarness.a2a();
            h.firstTurn("m1", "hi");
            h.event(nameless);
            assertThat(h.expect(Effect.CloseStream.class)).isNotNull();
            assertThat(h.turn("m1").taskId()).isNull();
            assertThat(h.nextCall(Duration.ofMinutes(1))).isInstanceOfSatisfying(Effect.SendStream.class,
                    s -> assertThat(s.message().messageId()).isEqualTo("m1"));
        }
        EngineHarness update = EngineHarness.a2a();
        update.firstTurn("m1", "hi");
        update.event(Wire.artifact(null, "c1", "a1", "text", false));
        assertThat(update.all(Effect.ShowAnswer.class)).isEmpty();
        assertThat(update.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.SendStream.class);
    }

    @Test
    @DisplayName("Replies: Create a contextId on a thread's first turn and keep it — a different contextId posts "
            + "'The agent no longer has this conversation' and the new context is kept")
    void replies_differentContextIdPostsNoticeAndTheNewContextIsKept() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m1", "one", "t1", "c1", "1");
        assertThat(h.notices()).isEmpty();
        h.chat("m2", "two");
        h.stream(task("t2", "c2", TaskState.WORKING), artifact("t2", "c2", "a1", "2", false),
                task("t2", "c2", TaskState.COMPLETED, "2"));
        assertThat(h.notices()).containsExactly("The agent no longer has this conversation");
        assertThat(h.session.contextId()).isEqualTo("c2");
        h.chat("m3", "three");
        assertThat(h.call(Effect.SendStream.class).message().contextId()).isEqualTo("c2");
        assertThat(h.finished("m2")).isTrue();
    }

    @Test
    @DisplayName("Replies: Put the answer in artifact text parts — text in the status message, in history or in a bare "
            + "Message is not shown; a task that completes with no artifact text posts 'The agent finished without any output.'")
    void replies_answerIsArtifactTextOnlyAndNoArtifactTextPostsNoOutput() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        Task withHistory = new Task("t1", "c1", new TaskStatus(TaskState.WORKING, Wire.agentSays("s1", "thinking…"), null),
                null, List.of(Message.agentText("h1", "history text")), null);
        h.stream(withHistory, update("t1", "c1", new TaskStatus(TaskState.WORKING, Wire.agentSays("s2", "status text"), null)),
                new Task("t1", "c1", new TaskStatus(TaskState.COMPLETED, Wire.agentSays("s3", "Done!"), null), List.of(),
                        List.of(Message.agentText("h2", "more history")), null));
        assertThat(h.all(Effect.ShowAnswer.class)).isEmpty();
        assertThat(h.notices()).containsExactly("The agent finished without any output.");
        assertThat(h.lastView("m1")).isEqualTo(TurnView.COMPLETED);

        EngineHarness text = EngineHarness.a2a();
        text.firstTurn("m1", "hi");
        text.stream(task("t1", "c1", TaskState.WORKING), artifact("t1", "c1", "a1", "The answer", false),
                task("t1", "c1", TaskState.COMPLETED, "The answer"));
        assertThat(text.all(Effect.ShowAnswer.class)).extracting(Effect.ShowAnswer::text).containsOnly("The answer");
        assertThat(text.notices()).isEmpty();
    }

    @Test
    @DisplayName("Replies: End the stream with a full Task in a terminal, input-required or auth-required state — "
            + "otherwise the stream is treated as dropped, and GetTask settles the turn after a second")
    void replies_streamNotEndingWithAFullSettledTaskIsSettledByGetTaskAfterASecond() {
        EngineHarness full = EngineHarness.a2a();
        full.firstTurn("m1", "hi");
        full.stream(task("t1", "c1", TaskState.WORKING), task("t1", "c1", TaskState.COMPLETED, "ok"));
        assertThat(full.finished("m1")).isTrue();
        assertThat(full.all(Effect.GetTask.class)).isEmpty();

        EngineHarness update = EngineHarness.a2a();
        update.firstTurn("m1", "hi");
        update.stream(task("t1", "c1", TaskState.WORKING), artifact("t1", "c1", "a1", "ok", false),
                update("t1", "c1", TaskState.COMPLETED));
        assertThat(update.finished("m1")).as("an update is not a full Task").isFalse();
        update.advance(Duration.ofMillis(999));
        assertThat(update.all(Effect.GetTask.class)).isEmpty();
        update.advance(Duration.ofMillis(1));
        assertThat(update.call(Effect.GetTask.class).taskId()).isEqualTo("t1");
        update.read(task("t1", "c1", TaskState.COMPLETED, "ok"));
        assertThat(update.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(update.notices()).isEmpty();

        EngineHarness running = EngineHarness.a2a();
        running.firstTurn("m1", "hi");
        running.stream(task("t1", "c1", TaskState.WORKING));
        assertThat(running.nextCall(Duration.ofSeconds(1))).isInstanceOf(Effect.GetTask.class);
        running.read(task("t1", "c1", TaskState.WORKING));
        assertThat(running.expect(Effect.Subscribe.class).taskId()).isEqualTo("t1");

        EngineHarness asks = EngineHarness.a2a();
        asks.firstTurn("m1", "hi");
        asks.stream(task("t1", "c1", Wire.asking("q1", asks.now, "Which day?")));
        assertThat(asks.all(Effect.AskQuestion.class)).hasSize(1);
        assertThat(asks.nextCall(Duration.ofMinutes(30))).isNull();

        EngineHarness auth = EngineHarness.a2a();
        auth.firstTurn("m1", "hi");
        auth.stream(task("t1", "c1", TaskState.AUTH_REQUIRED));
        assertThat(auth.lastView("m1")).isEqualTo(TurnView.PAUSED);
        assertThat(auth.nextCall(Duration.ofHours(2))).isNull();
    }

    @Test
    @DisplayName("Replies: Send an event at least every 5 minutes, including during a long tool call — the stream is "
            + "cut and the task followed again with GetTask and SubscribeToTask")
    void replies_fiveMinutesWithoutAnEventCutsTheStreamAndFollowsTheTask() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.advance(Duration.ofMinutes(4));
        h.event(artifact("t1", "c1", "a1", "still going", false));
        h.advance(Duration.ofMinutes(4).plusSeconds(59));
        assertThat(h.all(Effect.CloseStream.class)).as("every event restarts the 5 minutes").isEmpty();

        h.advance(Duration.ofSeconds(1));
        assertThat(h.all(Effect.CloseStream.class)).hasSize(1);
        assertThat(h.call(Effect.GetTask.class).taskId()).isEqualTo("t1");
        h.read(task("t1", "c1", TaskState.WORKING, "still going"));
        assertThat(h.expect(Effect.Subscribe.class).taskId()).isEqualTo("t1");

        // a subscription is held to the same limit
        h.advance(Duration.ofMinutes(5));
        assertThat(h.all(Effect.CloseStream.class)).hasSize(2);
        assertThat(h.call(Effect.GetTask.class)).isNotNull();

        // silence before the first event of a send: the outcome is unknown
        EngineHarness mute = EngineHarness.a2a();
        mute.firstTurn("m1", "hi");
        mute.advance(Duration.ofMinutes(5));
        assertThat(mute.all(Effect.CloseStream.class)).hasSize(1);
        assertThat(mute.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.SendStream.class);
    }

    @Test
    @DisplayName("Replies: Run one task per context at a time — while a task of the session is recorded, no new turn is "
            + "sent to it; replies queue behind it")
    void replies_oneTaskPerContextRepliesQueueBehindIt() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "one");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.chat("m2", "two");
        h.chat("m3", "three");
        assertThat(h.sends()).hasSize(1);
        assertThat(h.views("m2")).containsExactly(TurnView.QUEUED);
        assertThat(h.views("m3")).containsExactly(TurnView.QUEUED);

        h.event(task("t1", "c1", TaskState.COMPLETED, "1"));
        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsExactly("m1", "m2");
        h.stream(task("t2", "c1", TaskState.COMPLETED, "2"));
        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsExactly("m1", "m2", "m3");
        assertThat(h.sends().get(2).message().contextId()).isEqualTo("c1");
    }

    @Test
    @DisplayName("Replies: Treat a repeated messageId as the same turn — a thread's first turn has no context to look in, "
            + "so after an unknown outcome it is sent again with the same messageId")
    void replies_firstTurnAfterAnUnknownOutcomeIsSentAgainWithTheSameMessageId() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.fail(Wire.http(502));
        Effect again = h.nextCall(Duration.ofMinutes(1));
        assertThat(again).isInstanceOfSatisfying(Effect.SendStream.class, s -> {
            assertThat(s.message().messageId()).isEqualTo("m1");
            assertThat(s.message().contextId()).isNull();
        });
        assertThat(h.all(Effect.ListTasks.class)).as("no context to look in").isEmpty();

        // and a repeated delivery of the same chat message is the same turn, never a second one
        h.chat("m1", "hi");
        assertThat(h.last).isEmpty();
        assertThat(h.session.turns()).hasSize(1);
    }

    @Test
    @DisplayName("Replies: an artifact update with append: true adds to that artifact's text; any other replaces it; "
            + "lastChunk is not read; file and data parts are never shown")
    void replies_appendAddsOtherwiseReplacesLastChunkIgnoredFileAndDataPartsNotShown() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.event(artifact("t1", "c1", "a1", "Hel", false));
        h.event(artifact("t1", "c1", "a1", "lo", true));
        h.event(artifact("t1", "c1", new Artifact("a1", null, null, List.of(Part.text(" world")), null, null), true, true));
        h.event(artifact("t1", "c1", new Artifact("a1", null, null, List.of(Part.text("!")), null, null), true, false));
        assertThat(h.all(Effect.ShowAnswer.class)).extracting(Effect.ShowAnswer::text)
                .containsExactly("Hel", "Hello", "Hello world", "Hello world!");

        h.event(artifact("t1", "c1", "a1", "Replaced", false));
        h.event(artifact("t1", "c1", new Artifact("a2", null, null,
                List.of(Wire.file("https://files/x.txt"), Wire.data("{}"), Part.text(" + two")), null, null), false, true));
        assertThat(h.all(Effect.ShowAnswer.class)).last().extracting(Effect.ShowAnswer::text).isEqualTo("Replaced + two");
        assertThat(h.turn("m1").answer()).isEqualTo("Replaced + two");

        // an artifact of only a file or data part holds no text
        EngineHarness files = EngineHarness.a2a();
        files.firstTurn("m1", "hi");
        files.stream(task("t1", "c1", TaskState.WORKING),
                artifact("t1", "c1", new Artifact("f", null, null, List.of(Wire.file("https://x/y.pdf")), null, null), false, true),
                new Task("t1", "c1", TaskStatus.of(TaskState.COMPLETED),
                        List.of(new Artifact("f", null, null, List.of(Wire.file("https://x/y.pdf"), Wire.data("{}")), null, null)),
                        null, null));
        assertThat(files.all(Effect.ShowAnswer.class)).isEmpty();
        assertThat(files.notices()).containsExactly(Notices.NO_OUTPUT);
    }
}
