package dev.switchboard.bridge.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.ContractDurations;
import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Engine;
import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.engine.Transition;
import dev.switchboard.bridge.engine.Turn;
import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import dev.switchboard.store.Database;
import dev.switchboard.store.TestStore;
import dev.switchboard.testing.PostgresTest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 9, lean writes: a streamed chunk updates one post. The session is not rewritten for a chunk that changed
 * only the answer; the answer post keeps how its text divides into artifacts, and a session read from the store
 * (after a crash, or after it left memory) takes its active turn's answer from there. Recovery then reads the task
 * again, and the post shows the task's artifacts.
 */
@PostgresTest
@ParameterizedClass(name = "{0}")
@EnumSource(TestStore.class)
class AChunkWritesOnePostTest {

    @Parameter
    TestStore kind;

    static final Instant T0 = Instant.parse("2025-06-01T09:00:00Z");

    @TempDir
    Path dir;

    Database db;
    ChatStore store;
    final Engine engine = new Engine(ContractDurations.DEFAULTS);

    @BeforeEach
    void open() {
        db = kind.open(dir);
        store = new ChatStore(db.dataSource());
        store.createThread(new ChatThread("thread-1", Platform.WEB, "stream", "stream", "a thread", T0, T0));
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aChunkChangesOnlyTheAnswerAndTheStreamsLiveness() {
        Session streaming = streamingSession();
        Transition t = engine.step(streaming, chunk("a1", " part three", true), T0.plusSeconds(7));
        assertThat(t.effects()).singleElement().isInstanceOf(Effect.ShowAnswer.class);
        assertThat(t.session().changedOnlyByStreaming(streaming)).isTrue();
        assertThat(t.session().turns().get(0).answer()).isEqualTo("part one part two part three");

        // a new artifact is a change of the answer too; a task's state is not
        assertThat(engine.step(streaming, chunk("a2", "more", false), T0.plusSeconds(8)).session()
                .changedOnlyByStreaming(streaming)).isTrue();
        Transition done = engine.step(streaming, new Input.StreamEventReceived(streaming.gen(),
                new Task("t1", "c1", TaskStatus.of(TaskState.INPUT_REQUIRED), null, null, null)), T0.plusSeconds(9));
        assertThat(done.session().changedOnlyByStreaming(streaming)).isFalse();
    }

    @Test
    void chunksWriteTheAnswerPostAndNotTheSessionWhichIsReadBackWithTheirAnswer() {
        Session session = streamingSession();
        store.commitStep("thread-1", session, List.of(), null, T0);
        long writes = store.sessionWrites();

        Instant at = T0;
        String[] pieces = {" part three", " part four", " and five"};
        for (String piece : pieces) {
            at = at.plusSeconds(3);
            Transition t = engine.step(session, chunk("a1", piece, true), at);
            store.commitStep("thread-1", t.session(), t.effects(), null, at, false);
            session = t.session();
        }
        Transition other = engine.step(session, chunk("a2", "second artifact", false), at.plusSeconds(1));
        store.commitStep("thread-1", other.session(), other.effects(), null, at.plusSeconds(1), false);
        session = other.session();
        assertThat(store.sessionWrites()).as("chunks wrote no session").isEqualTo(writes);

        // after a crash, the stored session is read with the answer the chunks wrote to its post
        Session read = store.session("thread-1").orElseThrow();
        Turn turn = read.turns().get(0);
        assertThat(turn.progress().artifacts()).containsExactly(
                Map.entry("a1", "part one part two part three part four and five"), Map.entry("a2", "second artifact"));
        assertThat(turn.following().lastSignOfLife()).isEqualTo(at.plusSeconds(1));
        assertThat(read).isEqualTo(withSilenceDeadline(session, read.turns().get(0).following().silenceDeadline()));
        assertThat(store.pendingSessions().get("thread-1")).isEqualTo(read);

        // recovery reads the task again, and its artifacts are what the answer post then shows
        Transition restarted = engine.step(read, new Input.Restarted(), at.plusSeconds(60));
        Effect.GetTask get = restarted.effects().stream().filter(Effect.GetTask.class::isInstance)
                .map(Effect.GetTask.class::cast).findFirst().orElseThrow();
        store.commitStep("thread-1", restarted.session(), restarted.effects(), null, at.plusSeconds(60));
        Task task = new Task("t1", "c1", TaskStatus.of(TaskState.WORKING), List.of(
                Artifact.text("a1", "part one part two part three part four and five, six"),
                Artifact.text("a2", "second artifact")), null, null);
        Transition readAgain = engine.step(restarted.session(), new Input.TaskRead(get.gen(), task), at.plusSeconds(61));
        store.commitStep("thread-1", readAgain.session(), readAgain.effects(), null, at.plusSeconds(61));
        assertThat(store.post("answer-m1").orElseThrow().text())
                .isEqualTo("part one part two part three part four and five, six" + "second artifact");
        assertThat(store.session("thread-1").orElseThrow().turns().get(0).answer())
                .isEqualTo("part one part two part three part four and five, six" + "second artifact");
    }

    @Test
    void aSessionWrittenWithItsAnswerIsReadAsWritten() {
        Session session = streamingSession();
        Transition t = engine.step(session, chunk("a1", " part three", true), T0.plusSeconds(3));
        store.commitStep("thread-1", t.session(), t.effects(), null, T0.plusSeconds(3));
        assertThat(store.session("thread-1").orElseThrow()).isEqualTo(t.session());
    }

    /** A turn streaming its answer: task t1, artifact a1 "part one part two" (the v2 sample). */
    private static Session streamingSession() {
        try (InputStream in = AChunkWritesOnePostTest.class.getResourceAsStream("v2/streaming.json")) {
            return SessionFormat.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Input chunk(String artifactId, String text, boolean append) {
        return new Input.StreamEventReceived(4, new TaskArtifactUpdateEvent("t1", "c1", Artifact.text(artifactId, text),
                append, false, null));
    }

    /** The silence deadline is a timer's: after a restart, following the task again sets a new one. */
    private static Session withSilenceDeadline(Session s, Instant deadline) {
        Turn t = s.turns().get(0);
        Turn.Following f = t.following();
        Turn changed = new Turn(t.messageId(), t.text(), t.actor(), t.acceptedAt(), t.phase(), t.view(), t.outcome(),
                t.waiting(), t.progress(), t.retries(), new Turn.Following(f.subscribed(), f.subscribeUnsupported(),
                        deadline, f.lastEventWasTask(), f.streamLostAt(), f.lastSignOfLife(), f.pollAttempt(),
                        f.listPages()), t.cancelling(), t.question(), t.trace());
        List<Turn> turns = new java.util.ArrayList<>(s.turns());
        turns.set(0, changed);
        return new Session(s.id(), s.platform(), s.dialect(), s.questionsAllowed(), s.questionTimeout(),
                s.currentFingerprint(), s.cardFingerprint(), s.agentVersion(), s.contextId(), s.gen(), turns,
                s.lastQuestion(), s.hitl());
    }

}
