package dev.switchboard.bridge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.ContractDurations;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Engine;
import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Phase;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.engine.Transition;
import dev.switchboard.bridge.engine.Turn;
import dev.switchboard.bridge.engine.TurnView;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stored session format. The v1 samples in {@code resources/dev/switchboard/bridge/store/v1} are
 * what the bridge wrote before the format was versioned (Jackson over the engine's fields, as
 * {@code ChatStore} configured it at b23f0dc), taken from sessions the engine tests drive: a turn
 * streaming with a reply queued behind it, a typed answer being checked, a busy resend, an idle thread.
 */
class SessionFormatTest {

    static final Instant T0 = Instant.parse("2025-06-01T09:00:00Z");
    static final Actor ADA = new Actor("U123", "Ada Lovelace", "ada@example.com");

    @ParameterizedTest
    @ValueSource(strings = {"streaming", "answering", "busy", "idle"})
    void aV1RowReadsAndSurvivesARewriteAsV3(String sample) {
        Session v1 = SessionFormat.read(v1(sample));
        String v3 = SessionFormat.write(v1);
        assertThat(v3).startsWith("{\"v\":3,").doesNotContain("seenMessageIds");
        Session back = SessionFormat.read(v3);
        assertThat(back).isEqualTo(v1);
        assertThat(SessionFormat.write(back)).isEqualTo(v3);
    }

    /**
     * The v2 samples in {@code resources/dev/switchboard/bridge/store/v2} are what the bridge wrote at dd4e399
     * for the v1 samples: the same sessions, with the seen message ids v3 no longer keeps.
     */
    @ParameterizedTest
    @ValueSource(strings = {"streaming", "answering", "busy", "idle"})
    void aV2RowReadsIgnoringItsSeenMessageIdsAndIsRewrittenAsV3(String sample) {
        String v2 = sample("v2", sample);
        assertThat(v2).startsWith("{\"v\":2,").contains("\"seenMessageIds\":[\"m");
        Session read = SessionFormat.read(v2);
        assertThat(read).as("the same session as the v1 row it was written from").isEqualTo(SessionFormat.read(v1(sample)));
        String v3 = SessionFormat.write(read);
        assertThat(v3).startsWith("{\"v\":3,").doesNotContain("seenMessageIds");
        // v3 is v2 without the seen ids: nothing else of the row changes
        assertThat(v3.substring(6)).isEqualTo(v2.strip().substring(6).replaceFirst("\"seenMessageIds\":\\[[^\\]]*\\],", ""));
        assertThat(SessionFormat.read(v3)).isEqualTo(read);
    }

    @Test
    void aV2StreamingTurnKeepsItsAnswerAndQueue() {
        Session s = SessionFormat.read(sample("v2", "streaming"));
        assertThat(s.contextId()).isEqualTo("c1");
        assertThat(s.gen()).isEqualTo(4);
        assertThat(s.turns()).extracting(Turn::messageId).containsExactly("m1", "m2");
        assertThat(s.turns().get(0).answer()).isEqualTo("part one part two");
        assertThat(s.turns().get(0).phase()).isEqualTo(Phase.STREAMING);
    }

    @Test
    void aV1StreamingTurnKeepsItsAnswerQueueAndSettings() {
        Session s = SessionFormat.read(v1("streaming"));
        assertThat(s.id()).isEqualTo("thread-1");
        assertThat(s.platform()).isEqualTo(Platform.WEB);
        assertThat(s.dialect()).isEqualTo(Dialect.A2A);
        assertThat(s.questionsAllowed()).isTrue();
        assertThat(s.questionTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(s.contextId()).isEqualTo("c1");
        assertThat(s.agentVersion()).isEqualTo(ProtocolVersion.V1_0);
        assertThat(s.cardFingerprint()).isEqualTo("fp-1");
        assertThat(s.currentFingerprint()).isEqualTo("fp-1");
        assertThat(s.gen()).isEqualTo(4);
        assertThat(s.lastQuestion()).isNull();
        assertThat(s.turns()).extracting(Turn::messageId).containsExactly("m1", "m2");
        Turn active = s.turns().get(0);
        assertThat(active.phase()).isEqualTo(Phase.STREAMING);
        assertThat(active.view()).isEqualTo(TurnView.RUNNING);
        assertThat(active.actor()).isEqualTo(ADA);
        assertThat(active.acceptedAt()).isEqualTo(T0);
        assertThat(active.taskId()).isEqualTo("t1");
        assertThat(active.progress().lastState()).isEqualTo(TaskState.WORKING);
        assertThat(active.progress().artifacts()).containsExactly(java.util.Map.entry("a1", "part one part two"));
        assertThat(active.answer()).isEqualTo("part one part two");
        assertThat(active.sendAttempts()).isEqualTo(1);
        assertThat(active.following().silenceDeadline()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
        assertThat(active.following().lastSignOfLife()).isEqualTo(T0);
        Turn queued = s.turns().get(1);
        assertThat(queued.phase()).isEqualTo(Phase.QUEUED);
        assertThat(queued.view()).isEqualTo(TurnView.QUEUED);
        assertThat(queued.actor()).isNull();
        assertThat(queued.text()).isEqualTo("and then");
    }

    @Test
    void aV1BusyTurnKeepsItsResendAndNoticeClock() {
        Session s = SessionFormat.read(v1("busy"));
        Turn t = s.turns().get(0);
        assertThat(s.dialect()).isEqualTo(Dialect.KAGENT_V1);
        assertThat(s.contextId()).isNull();
        assertThat(t.phase()).isEqualTo(Phase.WAITING);
        assertThat(t.waiting()).isEqualTo(new Turn.Wait(Turn.Next.SEND, Instant.parse("2025-06-01T09:01:30Z")));
        assertThat(t.retries()).isEqualTo(new Turn.Retries(1, 1, null, T0, false));
    }

    /** A stored turn carries on after an upgrade: the typed answer v1 was checking is sent to the task. */
    @Test
    void aV1AnswerBeingCheckedIsSentAfterAnUpgrade() {
        Session s = SessionFormat.read(v1("answering"));
        assertThat(s.lastQuestion()).isEqualTo(new Session.LastQuestion("q1", T0));
        Turn t = s.turns().get(0);
        assertThat(t.phase()).isEqualTo(Phase.READING_TASK);
        assertThat(t.question()).isEqualTo(new Turn.Question(null, "a1", "Tuesday", ADA, List.of("a1"), true, false));

        TaskStatus stillAsking = new TaskStatus(TaskState.INPUT_REQUIRED, Message.agentText("q1", "Which day?"), T0);
        Transition next = new Engine(ContractDurations.DEFAULTS)
                .step(s, new Input.TaskRead(s.gen(), new Task("t1", "c1", stillAsking, null, null, null)), T0.plusSeconds(5));
        Effect.SendStream send = next.effects().stream().filter(Effect.SendStream.class::isInstance)
                .map(Effect.SendStream.class::cast).findFirst().orElseThrow();
        assertThat(send.message().messageId()).isEqualTo("a1");
        assertThat(send.message().taskId()).isEqualTo("t1");
        assertThat(send.message().contextId()).isEqualTo("c1");
        assertThat(send.message().text()).isEqualTo("[Web: Ada Lovelace (U123) <ada@example.com>]\nTuesday");
    }

    @Test
    void aNewSessionRoundTripsWithoutNulls() {
        Session fresh = new Session("t", Platform.WEB, Dialect.A2A, false, null, "fp");
        String json = SessionFormat.write(fresh);
        assertThat(json).doesNotContain("null");
        assertThat(SessionFormat.read(json)).isEqualTo(fresh);
    }

    @Test
    void theStoredSpellingsAreTheOnesBeforeTheEnums() {
        String json = SessionFormat.write(new Session("t", Platform.SLACK, Dialect.KAGENT_V1, true, null, "fp"));
        assertThat(json).contains("\"platform\":\"Slack\"", "\"dialect\":\"kagent-v1\"");
        // a session written with the platform's config name (as a test once did) still reads
        Session lower = SessionFormat.read(json.replace("\"Slack\"", "\"slack\""));
        assertThat(lower.platform()).isEqualTo(Platform.SLACK);
        assertThatThrownBy(() -> SessionFormat.read(json.replace("kagent-v1", "kagent")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'kagent' is not a dialect");
    }

    @Test
    void aNewerFormatIsRefusedNotMisread() {
        assertThatThrownBy(() -> SessionFormat.read("{\"v\":4,\"id\":\"t\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("v4");
    }

    private static String v1(String name) {
        return sample("v1", name);
    }

    private static String sample(String version, String name) {
        try (InputStream in = SessionFormatTest.class.getResourceAsStream(version + "/" + name + ".json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
