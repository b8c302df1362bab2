package dev.switchboard.check;

import static dev.switchboard.check.ReportAssertions.onlyFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * replies.event-every-5-minutes without --quick, judged only on what was seen. The seed's 5 minutes is injected as
 * 2.5 seconds here, so a task of a few seconds is a long one.
 */
@ServerTest
class LongTaskCheckTest {

    static final CheckLimits SHORT = CheckLimits.fullCheck().withSilenceLimit(Duration.ofMillis(2500));

    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close().await();
    }

    /** Checks a testkit agent whose default behaviour is {@code behavior}, started for the check alone. */
    static CheckReport check(String behavior, CheckLimits limits) {
        try (SwitchboardFixture agents = SwitchboardFixture.builder().vertx(vertx)
                .agent("long", TestAgentOptions.echo("long").withDefaultBehavior(behavior).withDedupe(true))
                .agentsOnly().start()) {
            return Checker.run(vertx, CheckRequest.of(agents.url("long"), limits));
        }
    }

    @Test
    void aLongTaskThatKeepsSendingEventsPasses() throws Exception {
        // 12 status updates 250 ms apart: the stream lasts over 3 s, never silent for the (injected) 2.5 s
        CheckReport report = check("/fulltask /heartbeat 12 250", SHORT);
        assertThat(report.row(RowId.REPLIES_EVENT_EVERY_5_MINUTES).verdict()).as(report.text()).isEqualTo(Verdict.PASS);
        assertThat(report.row(RowId.REPLIES_EVENT_EVERY_5_MINUTES).reason()).contains("stream lasted", "between events");
        assertThat(report.exitCode()).as(report.text()).isZero();
    }

    @Test
    void aLongSilenceFailsTheRowAndTheTaskIsStillSettledWithGetTask() throws Exception {
        // one event, then nothing while the task runs on for 5 s: cut after the limit, then read with GetTask
        CheckReport report = check("/mute 1 /slow 5000", SHORT);
        onlyFails(report, RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.FAIL, "without an event");
        assertThat(report.row(RowId.REPLIES_EVENT_EVERY_5_MINUTES).reason())
                .contains("Switchboard cuts the stream and follows the task again with GetTask and SubscribeToTask");
        assertThat(report.row(RowId.METHODS_GET_TASK).verdict()).isEqualTo(Verdict.PASS);
        assertThat(report.row(RowId.REPLIES_ARTIFACT_TEXT).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aTaskThatEndsBeforeTheLimitIsNotJudged() throws Exception {
        // an echo ends in milliseconds; a limit of 20 s leaves room for a loaded machine
        CheckReport report = check("/fulltask", CheckLimits.fullCheck().withSilenceLimit(Duration.ofSeconds(20)));
        assertThat(report.row(RowId.REPLIES_EVENT_EVERY_5_MINUTES).verdict()).as(report.text()).isEqualTo(Verdict.SKIP);
        assertThat(report.row(RowId.REPLIES_EVENT_EVERY_5_MINUTES).reason()).contains("no long task was seen");
    }
}
