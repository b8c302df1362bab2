package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.artifact;
import static dev.switchboard.bridge.engine.Wire.asking;
import static dev.switchboard.bridge.engine.Wire.http;
import static dev.switchboard.bridge.engine.Wire.task;
import static dev.switchboard.bridge.engine.Wire.update;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Seed 000, the "question on a2a" paragraph (B9), with the question's cancels (B13). */
class QuestionsRowsTest {

    @Test
    @DisplayName("Questions: a question on a2a is a status message made only of non-empty text parts")
    void questions_questionIsAStatusMessageOfOnlyNonEmptyTextParts() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "book");
        h.event(task("t1", "c1", asking("q1", h.now, "Which day?", "Lunch or dinner?")));
        assertThat(h.expect(Effect.AskQuestion.class).text()).isEqualTo("Which day?\nLunch or dinner?");

        List<TaskStatus> notQuestions = List.of(
                new TaskStatus(TaskState.INPUT_REQUIRED, null, null),
                new TaskStatus(TaskState.INPUT_REQUIRED, Wire.agentParts("q", List.of()), null),
                asking("q", null, "Which day?", ""),
                new TaskStatus(TaskState.INPUT_REQUIRED, Wire.agentParts("q", List.of(Part.text("Pick one"), Wire.data("{}"))), null),
                new TaskStatus(TaskState.INPUT_REQUIRED, Wire.agentParts("q", List.of(Wire.file("https://x/form.pdf"))), null));
        for (TaskStatus status : notQuestions) {
            EngineHarness n = EngineHarness.a2a();
            n.firstTurn("m1", "book");
            n.event(task("t1", "c1", status));
            assertThat(n.all(Effect.AskQuestion.class)).as("%s", status).isEmpty();
            assertThat(n.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        }

        // "non-empty" is read as written: a part of spaces is not empty
        EngineHarness spaces = EngineHarness.a2a();
        spaces.firstTurn("m1", "book");
        spaces.event(task("t1", "c1", asking("q1", null, "Which day?", " ")));
        assertThat(spaces.all(Effect.AskQuestion.class)).hasSize(1);
    }

    @Test
    @DisplayName("Questions: a question has a messageId or a status timestamp that differs from the last question's")
    void questions_aQuestionDiffersFromTheLastByMessageIdOrStatusTimestamp() {
        EngineHarness h = EngineHarness.a2a();
        Instant ts1 = h.now;
        h.askedQuestion("m1", "q1");
        h.answered("a1", "Tuesday");

        // same messageId, new timestamp: a new question
        h.advance(Duration.ofSeconds(10));
        TaskStatus again = asking("q1", h.now, "Tuesday is full. Which other day?");
        h.event(update("t1", "c1", TaskState.WORKING));
        h.event(task("t1", "c1", again));
        assertThat(h.all(Effect.AskQuestion.class)).extracting(Effect.AskQuestion::text)
                .containsExactly("Which day?", "Tuesday is full. Which other day?");
        h.chat("a2", "Wednesday");
        h.read(task("t1", "c1", again));
        assertThat(h.call(Effect.SendStream.class).message().messageId()).isEqualTo("a2");

        // new messageId, same timestamp: a new question
        TaskStatus third = asking("q3", again.timestamp(), "Lunch or dinner?");
        h.event(update("t1", "c1", TaskState.WORKING));
        h.event(task("t1", "c1", third));
        assertThat(h.all(Effect.AskQuestion.class)).hasSize(3);
        h.chat("a3", "Dinner");
        h.read(task("t1", "c1", third));
        assertThat(h.call(Effect.SendStream.class).message().messageId()).isEqualTo("a3");

        // the same messageId and timestamp after the agent moved on: not a question (nothing new to show)
        h.event(update("t1", "c1", TaskState.WORKING));
        h.event(task("t1", "c1", third));
        assertThat(h.all(Effect.AskQuestion.class)).hasSize(3);
        assertThat(h.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(h.notices()).containsExactly(Notices.QUESTION_UNSHOWABLE);
        assertThat(ts1).isEqualTo(EngineHarness.T0);
    }

    @Test
    @DisplayName("Questions: anything else in input-required cannot be shown, so the task is cancelled and the thread is told")
    void questions_anythingElseInInputRequiredIsCancelledAndTheThreadTold() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "book");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.event(update("t1", "c1", new TaskStatus(TaskState.INPUT_REQUIRED,
                Wire.agentParts("q1", List.of(Wire.data("{\"schema\":\"form\"}"))), null)));
        h.end();
        h.nextCall(Duration.ofSeconds(1)); // the update's state is settled by GetTask
        h.read(task("t1", "c1", new TaskStatus(TaskState.INPUT_REQUIRED,
                Wire.agentParts("q1", List.of(Wire.data("{\"schema\":\"form\"}"))), null)));

        assertThat(h.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(h.notices()).containsExactly(Notices.QUESTION_UNSHOWABLE);
        assertThat(h.lastView("m1")).isEqualTo(TurnView.CANCELLING);
        h.cancelAccepted(task("t1", "c1", TaskState.CANCELED));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.CANCELED);
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.notices()).as("only the reason is posted").hasSize(1);
    }

    @Test
    @DisplayName("Questions: the answer is one text part sent to the paused taskId and contextId, with its own messageId")
    void questions_answerIsOneTextPartToThePausedTaskAndContextWithItsOwnMessageId() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        Effect.SendStream answer = h.answered("a1", "Tuesday");

        assertThat(answer.message().messageId()).isEqualTo("a1").isNotEqualTo("m1");
        assertThat(answer.message().taskId()).isEqualTo("t1");
        assertThat(answer.message().contextId()).isEqualTo("c1");
        assertThat(answer.message().parts()).singleElement().isInstanceOfSatisfying(Part.Text.class,
                t -> assertThat(t.text()).endsWith("\nTuesday"));

        h.stream(task("t1", "c1", TaskState.WORKING), artifact("t1", "c1", "a1", "Booked Tuesday", false),
                task("t1", "c1", TaskState.COMPLETED, "Booked Tuesday"));
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.all(Effect.ShowAnswer.class)).allMatch(s -> s.messageId().equals("m1"));
    }

    @Test
    @DisplayName("Questions: a question the Binding does not allow is cancelled, and the thread told")
    void questions_disallowedQuestionIsCancelled() {
        EngineHarness h = new EngineHarness(Platform.WEB, Dialect.A2A, false, Duration.ofHours(1));
        h.firstTurn("m1", "book");
        h.event(task("t1", "c1", asking("q1", h.now, "Which day?")));
        assertThat(h.all(Effect.AskQuestion.class)).isEmpty();
        assertThat(h.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(h.notices()).containsExactly(Notices.QUESTION_NOT_ALLOWED);

        // the next message is a turn of its own, queued until the cancel is done
        h.chat("m2", "Tuesday");
        assertThat(h.views("m2")).containsExactly(TurnView.QUEUED);
        h.cancelAccepted(task("t1", "c1", TaskState.CANCELED));
        assertThat(h.call(Effect.SendStream.class).message().taskId()).isNull();
    }

    @Test
    @DisplayName("Questions: a question not answered within the Binding's timeout is cancelled, and the thread told")
    void questions_unansweredQuestionTimesOutAndIsCancelled() {
        EngineHarness h = new EngineHarness(Platform.WEB, Dialect.A2A, true, Duration.ofMinutes(10));
        h.askedQuestion("m1", "q1");
        h.advance(Duration.ofMinutes(9).plusSeconds(59));
        assertThat(h.all(Effect.CancelTask.class)).isEmpty();
        h.advance(Duration.ofSeconds(1));
        assertThat(h.call(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(h.notices()).containsExactly(Notices.QUESTION_TIMED_OUT);

        // an answer in time stops the clock
        EngineHarness answered = new EngineHarness(Platform.WEB, Dialect.A2A, true, Duration.ofMinutes(10));
        answered.askedQuestion("m1", "q1");
        answered.advance(Duration.ofMinutes(9));
        answered.answered("a1", "Tuesday");
        answered.event(update("t1", "c1", TaskState.WORKING));
        answered.advance(Duration.ofMinutes(4));
        assertThat(answered.all(Effect.CancelTask.class)).isEmpty();
    }

    @Test
    @DisplayName("Questions (Methods, GetTask): on a2a a typed reply makes us read the task first; if the agent has "
            + "moved on, the reply is no answer but a turn of its own, and the task is followed")
    void questions_typedReplyReadsTheTaskFirstAndATaskThatMovedOnIsFollowed() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        h.chat("a1", "Tuesday");
        h.read(task("t1", "c1", TaskState.CANCELED)); // the agent gave up waiting

        assertThat(h.notices()).containsExactly(Notices.CANCELED);
        assertThat(h.finished("m1")).isTrue();
        Effect.SendStream turn = h.call(Effect.SendStream.class);
        assertThat(turn.message().messageId()).isEqualTo("a1");
        assertThat(turn.message().taskId()).as("a new turn never sets taskId").isNull();
        assertThat(turn.message().contextId()).isEqualTo("c1");

        // still running: followed; the reply waits behind it
        EngineHarness running = EngineHarness.a2a();
        running.askedQuestion("m1", "q1");
        running.chat("a1", "Tuesday");
        running.read(task("t1", "c1", TaskState.WORKING));
        assertThat(running.expect(Effect.Subscribe.class).taskId()).isEqualTo("t1");
        assertThat(running.views("a1")).containsExactly(TurnView.QUEUED);

        // kagent-v1 does not read first (its answers are the HITL payload)
        EngineHarness kagent = EngineHarness.kagent();
        kagent.firstTurn("m1", "book");
        kagent.event(task("t1", "c1", asking("q1", kagent.now, "Which day?")));
        kagent.chat("a1", "Tuesday");
        assertThat(kagent.expect(Effect.SendStream.class).message().taskId()).isEqualTo("t1");
    }

    @Test
    @DisplayName("Questions: the question repeated in the snapshot that opens the answer's stream is ignored")
    void questions_repeatedQuestionInTheAnswerStreamsOpeningSnapshotIsIgnored() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        h.answered("a1", "Tuesday");
        h.event(task("t1", "c1", h.question));
        assertThat(h.last).noneMatch(e -> e instanceof Effect.CancelTask || e instanceof Effect.AskQuestion);
        h.stream(update("t1", "c1", TaskState.WORKING), artifact("t1", "c1", "a1", "Booked", false),
                task("t1", "c1", TaskState.COMPLETED, "Booked"));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.COMPLETED);
        assertThat(h.all(Effect.AskQuestion.class)).hasSize(1);

        // a stream that ends right after the snapshot is settled by GetTask; still asking: the answer is sent again
        EngineHarness stalled = EngineHarness.a2a();
        stalled.askedQuestion("m1", "q1");
        stalled.answered("a1", "Tuesday");
        stalled.stream(task("t1", "c1", stalled.question));
        stalled.nextCall(Duration.ofSeconds(1));
        stalled.read(task("t1", "c1", stalled.question));
        assertThat(stalled.sends()).extracting(s -> s.message().messageId()).containsExactly("m1", "a1", "a1");
    }

    @Test
    @DisplayName("Questions: an answer whose outcome is unknown is checked with GetTask, and sent again (same messageId) "
            + "only while the task still asks")
    void questions_answerOfUnknownOutcomeIsCheckedAndSentAgainOnlyWhileTheTaskStillAsks() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        h.answered("a1", "Tuesday");
        h.fail(http(502));
        assertThat(h.nextCall(Duration.ofMinutes(1))).isInstanceOfSatisfying(Effect.GetTask.class,
                g -> assertThat(g.taskId()).isEqualTo("t1"));
        h.read(task("t1", "c1", h.question));
        assertThat(h.expect(Effect.SendStream.class).message().messageId()).isEqualTo("a1");
        assertThat(h.all(Effect.ListTasks.class)).isEmpty();

        // the agent took it after all: followed, not sent again
        h.fail(Wire.dropped());
        h.nextCall(Duration.ofMinutes(1));
        h.read(task("t1", "c1", TaskState.WORKING));
        assertThat(h.expect(Effect.Subscribe.class).taskId()).isEqualTo("t1");
        assertThat(h.sends()).hasSize(3);
    }

    @Test
    @DisplayName("Questions: a second question in the same task is asked and answered like the first")
    void questions_secondQuestionInTheSameTask() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        h.answered("a1", "Tuesday");
        Task second = task("t1", "c1", asking("q2", h.now.plusSeconds(1), "How many people?"));
        h.stream(update("t1", "c1", TaskState.WORKING), second);
        assertThat(h.all(Effect.AskQuestion.class)).extracting(Effect.AskQuestion::text)
                .containsExactly("Which day?", "How many people?");
        h.chat("a2", "Four");
        h.read(second);
        Effect.SendStream a2 = h.call(Effect.SendStream.class);
        assertThat(a2.message().messageId()).isEqualTo("a2");
        assertThat(h.turn("m1").answerMessageIds()).containsExactly("a1", "a2");
    }
}
