package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.ServiceProcess;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.Delivery;
import dev.switchboard.testkit.slack.EventOptions;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import dev.switchboard.testkit.slack.SlackCall;
import dev.switchboard.testkit.slack.SlackMessage;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * B14 for Slack: Switchboard runs as its own process ({@code switchboard-app.jar serve}) with a Slack app in events
 * mode (one case in socket mode) on a fake Slack in this JVM, and is killed with SIGKILL while an answer streams into its Slack message. After
 * a restart on the same store the one message must end with the whole answer (edited, never posted twice), and the
 * agent (an A2A 1.0 testkit agent in this JVM, which keeps streaming while the service is down) must have received
 * the turn once: the restarted service follows the task instead of sending again.
 *
 * <p>Runs in failsafe's integration-test phase, after {@code package} built the jar; it builds nothing.
 */
@ServerTest
@ProcessTest
class SlackCrashRecoveryIT {

    /** Generous: a loaded 2-core machine restarts the service slowly, and the stream itself lasts ~24 s. */
    private static final Duration SETTLE = Duration.ofSeconds(90);
    /** Streamed in 16 pieces over ~24 s (see CrashRecoveryIT), so it is still running when the service dies. */
    private static final String STREAMED = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen";
    private static final String ADA = "U0ADA0001";
    private static final String CHANNEL = ConfigYaml.SLACK_CHANNEL;

    @TempDir
    Path dir;

    Vertx vertx;
    TestAgent agent;
    FakeSlack slack;
    ServiceProcess service;
    String baseUrl;
    boolean socket;

    @BeforeEach
    void start(TestInfo info) throws Exception {
        // surefire may pick this class up through a -Dtest pattern, before package has built a fresh jar
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null,
                "SlackCrashRecoveryIT runs in failsafe's integration-test phase, which names the packaged jar");
        // the native-streaming test runs on a workspace that streams, its SlackApp in streaming: native
        boolean nativeStreaming = info.getTestMethod().map(m -> m.getName().contains("Native")).orElse(false);
        // and the socket-mode test's app takes its events over Socket Mode
        socket = info.getTestMethod().map(m -> m.getName().contains("SocketMode")).orElse(false);
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("sre").withVersions(ProtocolVersion.V1_0), 0).await();
        slack = FakeSlack.start(vertx, FakeSlackOptions.defaults()
                .withTokens(ConfigYaml.SLACK_BOT_TOKEN, ConfigYaml.SLACK_APP_TOKEN).withNativeStreaming(nativeStreaming)).await();
        slack.addUser(ADA, "Ada", "Ada Lovelace", "ada@example.com");
        Path config = dir.resolve("switchboard.yaml");
        Files.writeString(config, ConfigYaml.server(dir.resolve("slack-crash.db"), false, ConfigYaml.QUICK_CONTRACT + """
                        giveUpAfter: 2m
                        """)
                .slackAgent("sre", agent.url(), (socket ? "socket" : "events") + (nativeStreaming ? "\n  streaming: native" : ""),
                        slack.apiUrl(), null)
                .yaml());
        // kept under target/ so a failure can be read after the run
        String method = info.getTestMethod().map(m -> m.getName()).orElse("run");
        service = new ServiceProcess(config, Path.of("target", "slack-crash-recovery", method));
    }

    @AfterEach
    void stop() throws Exception {
        if (slack != null) {
            // what Switchboard asked of Slack, in order: read with the service's logs when something fails
            for (SlackCall c : slack.calls()) {
                System.out.println("slack call " + c.at() + " " + c.method() + " ts=" + c.param("ts") + " text="
                        + c.param("text"));
            }
        }
        if (service != null) {
            service.close();
        }
        if (slack != null) {
            slack.close().await();
        }
        if (agent != null) {
            agent.close().await();
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }

    @Test
    void anAnswerStreamingIntoItsMessageSurvivesAKillAndIsFinishedInTheSameMessage() throws Exception {
        baseUrl = service.start();
        String ts = mention("/stream 16 1500\n" + STREAMED);
        String messageId = "slack-" + CHANNEL + "-" + ts;

        SlackMessage partial = Awaitility.await("part of the streamed answer shown in the bot's message")
                .atMost(SETTLE).pollInterval(Duration.ofMillis(50))
                .until(() -> botReplies(ts).stream().filter(m -> m.edits() >= 1 && m.text() != null
                        && !m.text().isEmpty() && m.text().length() < STREAMED.length()).findFirst().orElse(null),
                        m -> m != null);
        service.kill();
        int methodsBeforeRestart = agent.recorder().rpcRequests().size();

        baseUrl = service.start();
        SlackMessage done = awaitFullAnswer(ts);
        assertThat(done.ts()).as("the same message, edited rather than posted again").isEqualTo(partial.ts());
        assertThat(done.texts()).as("it grew from what was shown before the kill").contains(partial.text());
        assertThat(botReplies(ts)).as("one bot message in the thread").hasSize(1);
        assertThat(slack.calls("chat.postMessage")).as("the answer was posted once").hasSize(1);
        assertSentOnce(messageId);
        assertThat(agent.recorder().rpcRequests().stream().skip(methodsBeforeRestart).map(RecordedRequest::rpcMethod))
                .as("the restarted service follows the task").containsAnyOf("GetTask", "SubscribeToTask");
        report("streaming kill");
    }

    @Test
    void aNativeStreamSurvivesAKillAndIsFinishedInTheSameMessage() throws Exception {
        nativeStreamSurvivesAKill("native stream kill");
        assertThat(slack.calls("chat.postMessage")).as("nothing posted the old way").isEmpty();
        assertThat(slack.calls("chat.stopStream")).as("stopped once the turn was over").isNotEmpty();
    }

    @Test
    void aNativeStreamInSocketModeSurvivesAKillAndIsFinishedInTheSameMessage() throws Exception {
        nativeStreamSurvivesAKill("native stream kill, socket mode");
        assertThat(slack.connections()).as("the restarted service opened its own socket").isGreaterThanOrEqualTo(2);
    }

    /** An answer streaming natively when the service is killed ends, after a restart, in the same one message. */
    private void nativeStreamSurvivesAKill(String scenario) throws Exception {
        baseUrl = service.start();
        String ts = mention("/stream 16 1500\n" + STREAMED);
        String messageId = "slack-" + CHANNEL + "-" + ts;

        // killed as soon as Slack shows the stream: possibly before the service learned its ts (chat.startStream's
        // answer lost with the process), which the restarted service must find in the thread and go on with
        SlackMessage partial = Awaitility.await("part of the answer streamed into the bot's message")
                .atMost(SETTLE).pollInterval(Duration.ofMillis(20))
                .until(() -> botReplies(ts).stream().filter(m -> m.streaming() && m.text() != null
                        && !m.text().isEmpty() && m.text().length() < STREAMED.length()).findFirst().orElse(null),
                        m -> m != null);
        service.kill();

        baseUrl = service.start();
        SlackMessage done = Awaitility.await("the whole answer, the stream stopped").atMost(SETTLE)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> botReplies(ts).stream().filter(m -> STREAMED.equals(m.text()) && !m.streaming())
                        .findFirst().orElse(null), m -> m != null);
        assertThat(done.ts()).as("the same message, appended to rather than started again").isEqualTo(partial.ts());
        assertThat(botReplies(ts)).as("one bot message in the thread").hasSize(1);
        assertThat(slack.calls("chat.startStream")).as("the stream was started once").hasSize(1);
        assertSentOnce(messageId);
        report(scenario);
    }

    @Test
    void aPostWhoseAnswerWasLostIsLookedUpAfterAKillNotPostedAgain() throws Exception {
        baseUrl = service.start();
        // the first chat.postMessage is stored in Slack, but its connection is closed before the service learns its ts
        slack.dropAfterPerforming("chat.postMessage", 1);
        String ts = mention("/stream 16 1500\n" + STREAMED);
        String messageId = "slack-" + CHANNEL + "-" + ts;

        SlackMessage posted = Awaitility.await("the bot's message stored in Slack, its answer lost")
                .atMost(SETTLE).pollInterval(Duration.ofMillis(20))
                .until(() -> botReplies(ts).stream().findFirst().orElse(null), m -> m != null);
        service.kill();
        assertThat(slack.calls("chat.postMessage")).as("cut off once before the kill").isNotEmpty();

        baseUrl = service.start();
        SlackMessage done = awaitFullAnswer(ts);
        assertThat(done.ts()).as("the message posted before the kill, found again").isEqualTo(posted.ts());
        assertThat(botReplies(ts)).as("one bot message in the thread").hasSize(1);
        assertThat(slack.calls("conversations.replies")).as("looked up in the thread by its post id").isNotEmpty();
        assertThat(slack.calls("conversations.replies")).allSatisfy(c -> assertThat(c.param("ts")).isEqualTo(ts));
        assertSentOnce(messageId);
        report("post cut off, then kill");
    }

    // ================= helpers =================

    /** A person mentions the bot in a new thread; the signed app_mention is delivered and acknowledged. */
    private String mention(String text) {
        String ts = slack.postAsUser(CHANNEL, null, ADA, "<@" + slack.options().botUserId() + "> " + text);
        if (socket) {
            Awaitility.await("the service's socket open").atMost(SETTLE).until(slack::connected);
            slack.pushEvent(slack.mentionEvent(CHANNEL, ts));
            return ts;
        }
        Delivery d = slack.events(ConfigYaml.SLACK_SIGNING_SECRET)
                .deliver(baseUrl + "/slack/events", slack.mentionEvent(CHANNEL, ts), EventOptions.defaults());
        assertThat(d.status()).as("the event acknowledged").isEqualTo(200);
        return ts;
    }

    private List<SlackMessage> botReplies(String threadTs) {
        return slack.thread(CHANNEL, threadTs).stream().filter(SlackMessage::fromBot).toList();
    }

    /** Waits until a bot message of the thread shows the whole streamed answer; returns it. */
    private SlackMessage awaitFullAnswer(String threadTs) {
        return Awaitility.await("the whole answer shown in the thread").atMost(SETTLE).pollInterval(Duration.ofMillis(200))
                .until(() -> botReplies(threadTs).stream().filter(m -> STREAMED.equals(m.text())).findFirst().orElse(null),
                        m -> m != null);
    }

    /** The agent received the turn's messageId in exactly one send, a SendStreamingMessage. */
    private void assertSentOnce(String messageId) {
        List<RecordedRequest> sends = agent.recorder().rpcRequests().stream()
                .filter(r -> messageId.equals(r.messageId())).toList();
        assertThat(sends).as("sends of %s", messageId).hasSize(1);
        assertThat(sends.get(0).rpcMethod()).isEqualTo("SendStreamingMessage");
        assertThat(agent.recorder().rpcRequests()).filteredOn(RecordedRequest::isSend)
                .as("nothing else was sent").extracting(RecordedRequest::messageId).containsExactly(messageId);
    }

    private void report(String scenario) {
        Map<String, Long> methods = agent.recorder().rpcMethods().stream()
                .collect(Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()));
        Map<String, Long> slackCalls = slack.calls().stream().map(SlackCall::method)
                .collect(Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()));
        System.out.println(scenario + ": the agent received " + methods + "; Slack received " + slackCalls);
    }
}
