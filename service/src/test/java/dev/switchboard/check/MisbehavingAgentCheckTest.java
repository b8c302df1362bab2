package dev.switchboard.check;

import static dev.switchboard.check.ReportAssertions.onlyFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each testkit misbehaviour (a default behaviour, or an option of the agent) makes exactly its row FAIL or WARN, with the
 * seed's consequence in the reason; no other row FAILs.
 */
@ServerTest
class MisbehavingAgentCheckTest {

    static final CheckLimits QUICK = CheckLimits.quickCheck();

    static Vertx vertx;

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

    /** The well-behaved agent with one thing changed. */
    static TestAgentOptions agent(String defaultBehavior) {
        return TestAgentOptions.echo("bad").withDefaultBehavior(defaultBehavior).withDedupe(true);
    }

    static TestAgentOptions good() {
        return agent("/fulltask");
    }

    @Test
    void aCardWithoutStreamingFailsDiscoveryStreamingAndNothingIsSent() throws Exception {
        CheckReport report = quick(good().withStreaming(false));
        onlyFails(report, RowId.DISCOVERY_STREAMING, Verdict.FAIL, "agent card does not declare streaming");
        assertThat(report.row(RowId.METHODS_SEND_STREAMING).verdict()).isEqualTo(Verdict.SKIP);
        assertThat(report.row(RowId.METHODS_SEND_STREAMING).reason()).contains("see discovery.streaming");
    }

    @Test
    void aCardWithNoJsonRpcInterfaceFailsItsRow() throws Exception {
        CheckReport report = quick(good().withInterfaceBinding("GRPC"));
        onlyFails(report, RowId.DISCOVERY_JSONRPC_INTERFACE, Verdict.FAIL, "agent card lists no JSON-RPC interface");
    }

    @Test
    void aRequiredExtensionA2aDoesNotSpeakFailsDiscoveryExtensions() throws Exception {
        CheckReport report = quick(good().withRequiredExtension("urn:example:needed"));
        onlyFails(report, RowId.DISCOVERY_EXTENSIONS, Verdict.FAIL, "agent requires an unsupported extension");
        assertThat(report.row(RowId.DISCOVERY_EXTENSIONS).reason()).contains("urn:example:needed");
    }

    @Test
    void aRedirectFailsTransportNoRedirect() throws Exception {
        CheckReport report = quick(agent("/redirect 307 http://127.0.0.1:9/elsewhere"));
        onlyFails(report, RowId.TRANSPORT_NO_REDIRECT, Verdict.FAIL, "HTTP 307");
        assertThat(report.row(RowId.TRANSPORT_NO_REDIRECT).reason()).contains("follows no redirect");
        assertThat(report.row(RowId.METHODS_SEND_STREAMING).reason()).contains("see transport.no-redirect");
    }

    @Test
    void headersThatComeTooLateFailTransportHeadersAndTheCheckDoesNotHang() throws Exception {
        // the seed's limit is 30 s; the test injects 5 s against an agent that holds its headers for 20 s
        CheckReport report = check(agent("/hold 20000"),
                url -> CheckRequest.of(url, QUICK.withHeadersTimeout(Duration.ofSeconds(5))));
        onlyFails(report, RowId.TRANSPORT_HEADERS_IN_30S, Verdict.FAIL, "lost connection");
        assertThat(report.took()).isLessThan(Duration.ofSeconds(19));
    }

    @Test
    void anAgentThatNeverAnswersFailsWithAReasonInsteadOfHanging() throws Exception {
        CheckReport report = check(agent("/silence"),
                url -> CheckRequest.of(url, QUICK.withHeadersTimeout(Duration.ofSeconds(5))));
        onlyFails(report, RowId.TRANSPORT_HEADERS_IN_30S, Verdict.FAIL, "no response headers within 5.0 s");
    }

    @Test
    void aStreamEndingOnAStatusUpdateWarnsThatGetTaskSettlesTheTurn() throws Exception {
        CheckReport report = quick(agent("/echo"));
        onlyFails(report, RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.WARN,
                "the stream ended with a status update (status-update(completed)), not a full Task");
        assertThat(report.row(RowId.REPLIES_ENDS_WITH_FULL_TASK).reason())
                .contains("Switchboard treats it as dropped and settles such turns with GetTask after a second");
    }

    @Test
    void aStreamEndingOnAnUnsettledTaskWarnsToo() throws Exception {
        CheckReport report = quick(agent("/end 1 /slow 300"));
        onlyFails(report, RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.WARN, "an unsettled Task (Task(");
        assertThat(report.row(RowId.METHODS_GET_TASK).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aBareMessageFailsReplesTaskEvents() throws Exception {
        CheckReport report = quick(agent("/message"));
        onlyFails(report, RowId.REPLIES_TASK_EVENTS, Verdict.FAIL, "the agent could not be reached");
        assertThat(report.row(RowId.REPLIES_TASK_EVENTS).reason()).contains("Message(");
    }

    @Test
    void eventsWithoutAContextIdFailRepliesNamesTaskAndContext() throws Exception {
        CheckReport report = quick(agent("/nocontext"));
        onlyFails(report, RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.FAIL, "names no contextId");
        assertThat(report.row(RowId.REPLIES_NAMES_TASK_AND_CONTEXT).reason()).contains("the turn is sent again");
    }

    @Test
    void eventsWithoutIdsFailRepliesNamesTaskAndContext() throws Exception {
        CheckReport report = quick(agent("/noids"));
        onlyFails(report, RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.FAIL, "task.id: missing");
        assertThat(report.row(RowId.REPLIES_NAMES_TASK_AND_CONTEXT).reason()).contains("the turn is sent again");
    }

    @Test
    void aNewContextOnEveryTurnFailsRepliesKeepsContext() throws Exception {
        CheckReport report = quick(agent("/newcontext"));
        onlyFails(report, RowId.REPLIES_KEEPS_CONTEXT, Verdict.FAIL, "The agent no longer has this conversation");
    }

    @Test
    void aTaskCompletedWithoutArtifactTextFailsRepliesArtifactText() throws Exception {
        CheckReport report = quick(agent("/fulltask /empty"));
        onlyFails(report, RowId.REPLIES_ARTIFACT_TEXT, Verdict.FAIL, "The agent finished without any output.");
    }

    @Test
    void busyWhenIdleFailsErrorsBusyOnlyWhenBusyAndTheCheckGoesOnAsTheBridgeWould() throws Exception {
        CheckReport report = quick(agent("/busy 1 /fulltask"));
        onlyFails(report, RowId.ERRORS_BUSY_ONLY_WHEN_BUSY, Verdict.FAIL, "-32004");
        assertThat(report.row(RowId.ERRORS_BUSY_ONLY_WHEN_BUSY).reason())
                .contains("sends the same message again after a backoff, for as long as it takes");
        // the resend went through, so the turns were judged
        assertThat(report.row(RowId.REPLIES_KEEPS_CONTEXT).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void anAgentWithoutGetTaskFailsMethodsGetTask() throws Exception {
        CheckReport report = quick(good().withUnimplemented(A2aMethod.GET_TASK));
        onlyFails(report, RowId.METHODS_GET_TASK, Verdict.FAIL, "-32601");
        assertThat(report.row(RowId.METHODS_GET_TASK).reason()).contains("cannot finish");
    }

    @Test
    void anAgentWithoutSubscribeWarnsThatLiveTextStops() throws Exception {
        CheckReport report = quick(good().withUnimplemented(A2aMethod.SUBSCRIBE_TO_TASK));
        onlyFails(report, RowId.METHODS_SUBSCRIBE, Verdict.WARN, "live text stops");
    }

    @Test
    void anAgentWithoutCancelFailsMethodsCancel() throws Exception {
        CheckReport report = quick(good().withCancelable(false));
        onlyFails(report, RowId.METHODS_CANCEL, Verdict.FAIL, "the task keeps running on the agent");
    }

    @Test
    void anAgentWithoutListTasksFailsMethodsListTasks() throws Exception {
        CheckReport report = quick(good().withUnimplemented(A2aMethod.LIST_TASKS));
        onlyFails(report, RowId.METHODS_LIST_TASKS, Verdict.FAIL, "the turn fails after 15 minutes");
    }

    @Test
    void aTaskLeftRunningBesideTheTurnsFailsSessionsOneTaskPerContextAndTheCheckCancelsIt() throws Exception {
        try (SwitchboardFixture agents = SwitchboardFixture.builder().vertx(vertx).agent("checked", agent("/linger"))
                .agentsOnly().start()) {
            TestAgent agent = agents.agent("checked");
            CheckReport report = Checker.run(vertx, CheckRequest.of(agent.url(), QUICK));
            onlyFails(report, RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.FAIL, "still running");
            assertThat(report.row(RowId.SESSIONS_ONE_TASK_PER_CONTEXT).reason())
                    .contains("Switchboard sends no new turn into a context while a task of it runs");
            // the tasks the agent left working in the checker's contexts are cancelled: one per turn that ran
            assertThat(report.cancelled()).hasSizeGreaterThanOrEqualTo(2);
            assertThat(agent.recorder().rpcMethods()).contains("CancelTask");
        }
    }

    @Test
    void anAgentThatRunsARepeatedMessageIdAgainWarns() throws Exception {
        CheckReport report = quick(good().withDedupe(false));
        onlyFails(report, RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.WARN, "ran the turn twice");
    }
}
