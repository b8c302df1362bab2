package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.VirtualScheduler;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's contract timers at the seed's own durations, on a virtual clock: each fires after exactly its duration
 * and not a millisecond before (advanced to the duration less 1 ms nothing has happened; 1 ms more and it has),
 * against a real agent over HTTP, in the time the calls take rather than minutes.
 */
@ServerTest
class ContractTimersOnAVirtualClockTest {

    private static final Duration MS = Duration.ofMillis(1);
    /** Real time in which something that must not happen would have happened. */
    private static final Duration NOTHING_MORE = Duration.ofMillis(400);

    @TempDir
    Path dir;

    Vertx vertx;
    TestAgent agent;
    SwitchboardApp app;
    ChatApi chat;
    VirtualScheduler time;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("agent"), 0).await();
        time = new VirtualScheduler();
        // the seed's durations: the contract block restates the one the other tests shorten
        app = SwitchboardFixture.builder().vertx(vertx).bridgeTime(time)
                .yaml(ConfigYaml.server(dir.resolve("db"), false, "settleDelay: 1s")
                .webBackend("agent", agent.url(), null)
                .webBackend("nowhere", "http://127.0.0.1:1/", null)).start().app();
        chat = new ChatApi(app.baseUrl());
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close().await();
        }
        if (agent != null) {
            agent.close().await();
        }
        vertx.close().await();
    }

    @Test
    void aStreamThatEndsWithoutASettledTaskIsReadWithGetTaskAfterOneSecond() {
        Instant t0 = time.now();
        Sent sent = chat.newThread("agent", "hello");
        awaitTimerAt(t0.plus(Duration.ofSeconds(1)));

        time.advance(Duration.ofSeconds(1).minus(MS));
        assertNoMore(() -> calls("get"), 0);
        time.advance(MS);
        Awaitility.await("GetTask after the settle delay").until(() -> calls("get") == 1);
        chat.awaitState(sent, "completed");
    }

    @Test
    void aTurnRefusedAsBusyIsToldToTheThreadAfterTwoMinutes() {
        Instant t0 = time.now();
        Sent sent = chat.newThread("agent", "/busy 1000\npatience");
        awaitTimerAt(t0.plus(Duration.ofSeconds(1))); // the first resend's backoff

        time.advance(Duration.ofMinutes(2).minus(MS));
        assertThat(agent.recorder().rpcRequests()).as("sent again meanwhile").hasSizeGreaterThan(1);
        assertNoMore(() -> chat.notices(sent.threadId(), sent.messageId()).size(), 0);
        time.advance(MS);
        Awaitility.await("the busy notice").until(() -> chat.notices(sent.threadId(), sent.messageId())
                .contains(Notices.BUSY));
    }

    @Test
    void aStreamSilentForFiveMinutesIsCutAndTheTaskFollowedAgain() {
        Instant t0 = time.now();
        chat.newThread("agent", "/mute 1 /echo\nquiet");
        awaitTimerAt(t0.plus(Duration.ofMinutes(5)));
        int before = agent.recorder().rpcRequests().size();

        time.advance(Duration.ofMinutes(5).minus(MS));
        assertNoMore(() -> agent.recorder().rpcRequests().size(), before);
        time.advance(MS);
        Awaitility.await("the task followed again").until(() -> agent.recorder().rpcRequests().size() > before);
    }

    @Test
    void aCardThatCannotBeFetchedFailsTheTurnAtTheFirstRetryAfterFifteenMinutes() {
        Instant t0 = time.now();
        Sent sent = chat.newThread("nowhere", "anyone?");
        awaitTimerAt(t0.plus(Duration.ofSeconds(1)));

        time.advance(Duration.ofMinutes(15).minus(MS));
        assertNoMore(() -> chat.notices(sent.threadId(), sent.messageId()).size(), 0);
        // the window is checked when a retry fails: the one after 15 minutes is at most a backoff (30 s) later
        time.advance(Duration.ofSeconds(30).plus(MS));
        assertThat(chat.awaitFinal(sent).state()).isEqualTo("not_delivered");
        assertThat(chat.notices(sent.threadId(), sent.messageId())).containsExactly(Notices.unreachable());
    }

    @Test
    void aQuestionNotAnsweredForAnHourIsCancelled() {
        Instant t0 = time.now();
        Sent asked = chat.newThread("agent", "/ask Anyone there?");
        // the stream ended on the question's status update: the task is read to settle it, a second later
        awaitTimerAt(t0.plus(Duration.ofSeconds(1)));
        time.advance(Duration.ofSeconds(1));
        chat.awaitState(asked, "waiting_for_answer");
        // the hour runs from when the question was asked: the event, or the read that settled it
        Awaitility.await("the question's timer").until(() -> time.pendingAt(t0.plus(Duration.ofHours(1)))
                || time.pendingAt(time.now().plus(Duration.ofHours(1))));
        Instant deadline = time.pendingAt(t0.plus(Duration.ofHours(1))) ? t0.plus(Duration.ofHours(1))
                : time.now().plus(Duration.ofHours(1));

        time.advance(Duration.between(time.now(), deadline).minus(MS));
        assertNoMore(() -> calls("cancel"), 0);
        time.advance(MS);
        Awaitility.await("CancelTask after the question timeout").until(() -> calls("cancel") == 1);
        assertThat(chat.awaitFinal(asked).state()).isEqualTo("canceled");
        assertThat(chat.notices(asked.threadId(), asked.messageId())).contains(Notices.QUESTION_TIMED_OUT);
    }

    /** Waits (real time) until the driver has set a timer for exactly {@code at}. */
    private void awaitTimerAt(Instant at) {
        Awaitility.await("a timer at " + at).atMost(Duration.ofSeconds(20)).until(() -> time.pendingAt(at));
    }

    /** {@code value} stays {@code expected} for a while of real time. */
    private static void assertNoMore(java.util.function.IntSupplier value, int expected) {
        Awaitility.await().during(NOTHING_MORE).atMost(NOTHING_MORE.multipliedBy(3))
                .until(() -> value.getAsInt() == expected);
    }

    /** How many calls to the agent's method named like {@code word} (get: GetTask or tasks/get) it received. */
    private int calls(String word) {
        Recorder r = agent.recorder();
        return (int) r.rpcMethods().stream().filter(m -> m.toLowerCase(Locale.ROOT).contains(word)).count();
    }
}
