package dev.switchboard.check;

import static dev.switchboard.check.ReportAssertions.passesBut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A testkit agent that keeps the whole contract passes every row it can; the row ids are all there, in order. */
@ServerTest
class WellBehavedAgentCheckTest {

    static final CheckLimits QUICK = CheckLimits.quickCheck();

    static Vertx vertx;

    /** Ends every stream with the full Task and runs a repeated messageId once: the contract, row by row. */
    static TestAgentOptions wellBehaved() {
        return TestAgentOptions.echo("good").withDefaultBehavior("/fulltask").withDedupe(true);
    }

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close().await();
    }

    /** Checks the testkit agent with {@code options} (--quick unless {@code request} says otherwise), started for it alone. */
    static CheckReport check(TestAgentOptions options, Function<String, CheckRequest> request) {
        try (SwitchboardFixture agents = SwitchboardFixture.builder().vertx(vertx).agent("checked", options)
                .agentsOnly().start()) {
            return Checker.run(vertx, request.apply(agents.url("checked")));
        }
    }

    static CheckReport quick(TestAgentOptions options) {
        return check(options, url -> CheckRequest.of(url, QUICK));
    }

    @Test
    void aWellBehaved10AgentPassesEveryRowButTheLongTaskOne() throws Exception {
        CheckReport report = quick(wellBehaved());
        passesBut(report, RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP);
        assertThat(report.version()).isEqualTo("1.0");
        assertThat(report.exitCode()).isZero();
        assertThat(report.rows()).extracting(r -> r.row().id()).containsExactly("discovery.card",
                "discovery.jsonrpc-interface", "discovery.streaming", "discovery.extensions", "transport.no-redirect",
                "transport.headers-in-30s", "methods.send-streaming", "methods.get-task", "methods.subscribe",
                "methods.cancel", "methods.list-tasks", "replies.task-events", "replies.names-task-and-context",
                "replies.creates-context", "replies.keeps-context", "replies.artifact-text", "replies.ends-with-full-task",
                "replies.event-every-5-minutes", "sessions.one-task-per-context", "sessions.repeated-message-id",
                "errors.busy-only-when-busy");
        assertThat(report.row(RowId.REPLIES_EVENT_EVERY_5_MINUTES).reason()).contains("--quick");
    }

    @Test
    void aWellBehaved03AgentPassesEveryRowItCanAndIsNeverAskedListTasks() throws Exception {
        CheckReport report = quick(wellBehaved().withVersions(ProtocolVersion.V0_3));
        passesBut(report, RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP, RowId.METHODS_LIST_TASKS, Verdict.SKIP);
        assertThat(report.version()).isEqualTo("0.3");
        assertThat(report.row(RowId.METHODS_LIST_TASKS).reason()).contains("never asked ListTasks");
    }

    @Test
    void theTestkitsDefaultAgentOnlyWarnsWhereItBehavesAsA2aJsServersDo() throws Exception {
        // by default a testkit stream ends on its last status update and a repeated messageId runs again
        CheckReport report = quick(TestAgentOptions.echo("echo"));
        passesBut(report, RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP,
                RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.WARN, RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.WARN);
        assertThat(report.row(RowId.REPLIES_ENDS_WITH_FULL_TASK).reason()).contains(
                "the stream ended with a status update (status-update(completed)), not a full Task",
                "Switchboard treats it as dropped and settles such turns with GetTask after a second");
        assertThat(report.row(RowId.SESSIONS_REPEATED_MESSAGE_ID).reason()).contains("ran the turn twice");
        assertThat(report.exitCode()).isZero();
    }

    @Test
    void theCheckSendsTheTokenAndHeadersOnEveryCallAndLeavesNoTaskRunning() throws Exception {
        try (SwitchboardFixture agents = SwitchboardFixture.builder().vertx(vertx).agent("checked", wellBehaved())
                .agentsOnly().start()) {
            TestAgent agent = agents.agent("checked");
            CheckReport report = Checker.run(vertx, new CheckRequest(agent.url(), Dialect.A2A, null, null,
                    java.util.Map.of("X-Team", "blue", "Authorization", "Basic old"), "s3cret", null, QUICK));
            assertThat(report.exitCode()).as(report.text()).isZero();
            List<RecordedRequest> requests = agent.recorder().requests();
            assertThat(requests).isNotEmpty().allSatisfy(r -> {
                assertThat(r.header("Authorization")).isEqualTo("Bearer s3cret");
                assertThat(r.header("X-Team")).isEqualTo("blue");
            });
            assertThat(report.text()).doesNotContain("s3cret");
            assertThat(agent.recorder().rpcMethods()).contains("SendStreamingMessage", "GetTask", "ListTasks",
                    "SubscribeToTask", "CancelTask");
            // every turn is one user message with one text part, and no send ever names a task
            assertThat(agent.recorder().rpcRequests().stream().filter(r -> "SendStreamingMessage".equals(r.rpcMethod())))
                    .allSatisfy(r -> assertThat(r.taskId()).isNull());
        }
    }
}
