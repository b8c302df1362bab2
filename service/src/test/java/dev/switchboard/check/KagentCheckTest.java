package dev.switchboard.check;

import static dev.switchboard.check.ReportAssertions.onlyFails;
import static dev.switchboard.check.ReportAssertions.passesBut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** --dialect kagent-v1: the agent is called at URL/agents/NAMESPACE/NAME, and its card must list hitl/v1. */
@ServerTest
class KagentCheckTest {

    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close().await();
    }

    /** The testkit agent with {@code options} where kagent serves it, {@code <url>/agents/default/sre}. */
    static SwitchboardFixture served(TestAgentOptions options) {
        return SwitchboardFixture.builder().vertx(vertx).kagentAgent("sre", options).agentsOnly().start();
    }

    static CheckReport check(SwitchboardFixture served) {
        return Checker.run(vertx, new CheckRequest(served.url("sre"), dev.switchboard.bridge.engine.Dialect.KAGENT_V1, "default", "sre", null, null, null,
                CheckLimits.quickCheck()));
    }

    static TestAgentOptions kagent() {
        return TestAgentOptions.kagent("sre").withDefaultBehavior("/fulltask").withDedupe(true);
    }

    @Test
    void theTestkitsKagentAgentPassesTheHitlRowAndEveryOther() throws Exception {
        Recorder recorder;
        CheckReport report;
        try (SwitchboardFixture served = served(kagent())) {
            recorder = served.kagentAgent("sre").recorder();
            report = check(served);
        }
        passesBut(report, RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP);
        // as the bridge does: every call after the card asks for the extension the card lists
        assertThat(recorder.rpcRequests()).isNotEmpty()
                .allSatisfy(r -> assertThat(r.requestedExtensions()).containsExactly(Hitl.URI));
        assertThat(report.endpoint()).endsWith("/agents/default/sre");
        assertThat(report.row(RowId.KAGENT_HITL_EXTENSION).reason())
                .contains("https://kagent.dev/extensions/hitl/v1", "A2A-Extensions");
        assertThat(report.rows()).last().extracting(r -> r.row().id()).isEqualTo("kagent.hitl-extension");
    }

    @Test
    void aKagentAgentWithoutTheExtensionOnItsCardFailsKagentHitlExtension() throws Exception {
        Recorder recorder;
        CheckReport report;
        try (SwitchboardFixture served = served(kagent().withKagentHitl(false))) {
            recorder = served.kagentAgent("sre").recorder();
            report = check(served);
        }
        assertThat(recorder.rpcRequests()).isNotEmpty().allSatisfy(r -> assertThat(r.requestedExtensions()).isEmpty());
        onlyFails(report, RowId.KAGENT_HITL_EXTENSION, Verdict.FAIL, "do not list https://kagent.dev/extensions/hitl/v1");
    }

    @Test
    void kagentV1SpeaksTheHitlExtensionEvenWhenTheCardMarksItRequired() throws Exception {
        var required = new dev.switchboard.protocol.model.AgentExtension(
                dev.switchboard.protocol.kagent.Hitl.URI, "hitl", true, null);
        CheckReport report;
        try (SwitchboardFixture served = served(kagent().withExtensions(java.util.List.of(required)))) {
            report = check(served);
        }
        passesBut(report, RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP);
        assertThat(report.row(RowId.DISCOVERY_EXTENSIONS).reason()).contains("which kagent-v1 speaks");
    }
}
