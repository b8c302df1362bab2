package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.artifact;
import static dev.switchboard.bridge.engine.Wire.rpc;
import static dev.switchboard.bridge.engine.Wire.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The engine's timers: whatever a driver does with them, none is lost and none acts before its time. */
class TimersTest {

    @Test
    @DisplayName("Timers: a timer that fires a millisecond early is asked for again at its deadline, not lost")
    void timers_earlyFireIsRearmedAtTheDeadline() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.event(task("t1", "c1", TaskState.WORKING));
        Instant deadline = h.now.plus(Duration.ofMinutes(5));
        h.now = deadline.minusMillis(1);
        h.feed(new Input.TimerFired(h.session.gen()));
        assertThat(h.last).containsExactly(new Effect.ScheduleTimer(h.session.gen(), deadline));

        h.advanceTo(deadline);
        assertThat(h.all(Effect.CloseStream.class)).hasSize(1);
        assertThat(h.call(Effect.GetTask.class).taskId()).isEqualTo("t1");
    }

    @Test
    @DisplayName("Timers: stream events push the silence limit back without asking for a timer each")
    void timers_eventsPushTheSilenceDeadlineWithoutNewTimers() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        int before = h.all(Effect.ScheduleTimer.class).size();
        h.event(task("t1", "c1", TaskState.WORKING));
        for (int i = 0; i < 100; i++) {
            h.advance(Duration.ofSeconds(10));
            h.event(artifact("t1", "c1", "a1", "x", true));
        }
        // 1000 s of events: the first timer fired at 5 min and at 10 min, re-armed each time, nothing else
        assertThat(h.all(Effect.ScheduleTimer.class).size() - before).isEqualTo(3);
        assertThat(h.all(Effect.CloseStream.class)).isEmpty();
        h.advance(Duration.ofMinutes(5));
        assertThat(h.all(Effect.CloseStream.class)).hasSize(1);
    }

    @Test
    @DisplayName("Timers: a driver that keeps only the newest timer loses nothing (busy notice, Retry-After, question)")
    void timers_aDriverKeepingOnlyTheNewestTimerLosesNothing() {
        EngineHarness busy = EngineHarness.a2a().newestTimerOnly();
        busy.firstTurn("m1", "hi");
        busy.fail(rpc(JsonRpcError.UNSUPPORTED_OPERATION, Duration.ofMinutes(10)));
        busy.advance(Duration.ofMinutes(2));
        assertThat(busy.notices()).containsExactly(Notices.BUSY);
        busy.advance(Duration.ofMinutes(8).minusSeconds(1));
        assertThat(busy.sends()).hasSize(1);
        busy.advance(Duration.ofSeconds(1));
        assertThat(busy.sends()).hasSize(2);

        EngineHarness question = EngineHarness.a2a().newestTimerOnly();
        question.askedQuestion("m1", "q1");
        question.advance(Duration.ofHours(1));
        assertThat(question.all(Effect.CancelTask.class)).hasSize(1);

        EngineHarness silence = EngineHarness.a2a().newestTimerOnly();
        silence.firstTurn("m1", "hi");
        silence.event(task("t1", "c1", TaskState.WORKING));
        silence.advance(Duration.ofMinutes(3));
        silence.event(artifact("t1", "c1", "a1", "x", false));
        silence.advance(Duration.ofMinutes(5));
        assertThat(silence.all(Effect.GetTask.class)).hasSize(1);
        assertThat(silence.timesOf(Effect.GetTask.class)).containsExactly(EngineHarness.T0.plus(Duration.ofMinutes(8)));
    }

    @Test
    @DisplayName("Timers: a subscription that keeps ending without news is read again with a backoff of up to a minute, "
            + "and given up after an hour without a sign of life")
    void timers_emptySubscriptionsBackOff() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.stream(task("t1", "c1", TaskState.WORKING));
        h.agent(call -> {
            if (call instanceof Effect.GetTask) {
                return EngineHarness.replyRead(call, task("t1", "c1", TaskState.WORKING));
            }
            if (call instanceof Effect.Subscribe) {
                return EngineHarness.replyStream(call, task("t1", "c1", TaskState.WORKING));
            }
            return null;
        });
        h.advance(Duration.ofMinutes(30));
        List<Duration> gaps = h.gapsOf(Effect.Subscribe.class);
        assertThat(gaps.get(gaps.size() - 1)).isEqualTo(Duration.ofMinutes(1));
        assertThat(h.all(Effect.Subscribe.class).size()).isLessThan(40);
        h.advance(Duration.ofMinutes(31));
        assertThat(h.notices()).containsExactly(Notices.NO_SIGN_OF_LIFE);
        assertThat(h.call(Effect.CancelTask.class).taskId()).isEqualTo("t1");
    }
}
