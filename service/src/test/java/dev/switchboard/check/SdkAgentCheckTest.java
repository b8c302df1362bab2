package dev.switchboard.check;

import static dev.switchboard.check.ReportAssertions.passesBut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.it.SdkAgent;
import dev.switchboard.testing.InteropTest;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code @a2a-js/sdk} 1.3.0 echo agent ({@code interop/sdk-agent.mjs}, Node 20) passes every row it can. It
 * warns where a2a-js servers differ from the contract: a stream ends on its last status update, not on the full Task,
 * and a repeated messageId starts a second task.
 */
@ServerTest
@ProcessTest
@InteropTest
class SdkAgentCheckTest {

    static Vertx vertx;

    @TempDir
    static Path logs;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close().await();
    }

    @Test
    void theSdkAgentSpeaking10And03() throws Exception {
        try (SdkAgent agent = SdkAgent.start("1.0,0.3", logs)) {
            CheckReport report = Checker.run(vertx, CheckRequest.of(agent.rpcUrl, CheckLimits.quickCheck()));
            assertThat(report.version()).isEqualTo("1.0");
            passesBut(report, RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP,
                    RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.WARN, RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.WARN);
            assertThat(report.exitCode()).isZero();
        }
    }

    @Test
    void theSdkAgentSpeakingOnly03() throws Exception {
        try (SdkAgent agent = SdkAgent.start("0.3", logs)) {
            CheckReport report = Checker.run(vertx, CheckRequest.of(agent.rpcUrl, CheckLimits.quickCheck()));
            assertThat(report.version()).isEqualTo("0.3");
            passesBut(report, RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP, RowId.METHODS_LIST_TASKS, Verdict.SKIP,
                    RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.WARN, RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.WARN);
        }
    }
}
