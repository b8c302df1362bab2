package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, bridge metrics: {@code /metrics} shows what the bridge did with a turn (started, finished by
 * outcome, how long it took, the calls it made, the commits), what it holds (sessions, lane queues), and the
 * per-binding counters from the start, before anything happened, with labels that name no thread or message.
 */
@ServerTest
class BridgeMetricsTest {

    @TempDir
    Path dir;

    @Test
    void aTurnShowsInTheBridgeMetrics() throws Exception {
        Vertx vertx = Vertx.vertx();
        TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo("echo").withVersions(ProtocolVersion.V1_0), 0).await();
        SwitchboardApp app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("metrics.db"), false, ConfigYaml.QUICK_CONTRACT)
                .webAgent("echo", agent.url(), false)).start().app();
        try {
            String before = metrics(app);
            // registered at start: a dashboard sees zeros, not nothing
            assertThat(value(before, "switchboard_credential_rejections_total", "binding=\"web-echo\"")).isEqualTo(0.0);
            assertThat(value(before, "switchboard_bridge_turns_started_total", "binding=\"web-echo\"")).isEqualTo(0.0);
            assertThat(value(before, "switchboard_bridge_turns_finished_total", "outcome=\"not_delivered\"")).isEqualTo(0.0);
            for (String name : new String[] {"switchboard_bridge_resends_total", "switchboard_bridge_busy_waits_total",
                    "switchboard_bridge_cancels_total"}) {
                assertThat(value(before, name, "binding=\"web-echo\"")).as(name).isEqualTo(0.0);
            }

            ChatApi chat = new ChatApi(app.baseUrl());
            ChatApi.Sent sent = chat.newThread("echo", "hello");
            chat.awaitPosts(sent.threadId(), "the turn finished", Duration.ofSeconds(30),
                    posts -> ChatApi.FINAL.contains(chat.userPost(sent.threadId(), sent.messageId()).state()));

            Awaitility.await("the finished turn in /metrics").untilAsserted(() -> {
                String after = metrics(app);
                assertThat(value(after, "switchboard_bridge_turns_started_total", "platform=\"web\"")).isEqualTo(1.0);
                assertThat(value(after, "switchboard_bridge_turns_finished_total", "outcome=\"completed\"")).isEqualTo(1.0);
                assertThat(value(after, "switchboard_bridge_turn_duration_seconds_count", "outcome=\"completed\"")).isEqualTo(1.0);
                assertThat(value(after, "switchboard_bridge_agent_calls_total", "method=\"send\"", "result=\"ok\"")).isEqualTo(1.0);
                assertThat(value(after, "switchboard_bridge_agent_calls_total", "method=\"card\"", "result=\"ok\"")).isEqualTo(1.0);
                assertThat(value(after, "switchboard_bridge_store_commit_seconds_count")).isGreaterThanOrEqualTo(2.0);
                assertThat(value(after, "switchboard_bridge_sessions_open")).isGreaterThanOrEqualTo(0.0);
                assertThat(value(after, "switchboard_bridge_lane_queue_depth", "lane=\"0\"")).isGreaterThanOrEqualTo(0.0);
                // bounded labels: no thread or message id in any bridge series
                after.lines().filter(l -> l.startsWith("switchboard_bridge_"))
                        .forEach(l -> assertThat(l).doesNotContain(sent.threadId()).doesNotContain(sent.messageId()));
            });
        } finally {
            app.close().await();
            agent.close().await();
            vertx.close().await();
        }
    }

    private static String metrics(SwitchboardApp app) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    /** The value of the one series of {@code name} whose labels contain every one of {@code labels}. */
    private static double value(String exposition, String name, String... labels) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(exposition);
        Double found = null;
        while (m.find()) {
            String l = m.group(1) == null ? "" : m.group(1);
            boolean all = true;
            for (String want : labels) {
                all &= l.contains(want);
            }
            if (all) {
                assertThat(found).as("one series of %s with %s", name, String.join(",", labels)).isNull();
                found = Double.parseDouble(m.group(2));
            }
        }
        assertThat(found).as("a series %s with %s in:%n%s", name, String.join(",", labels), exposition).isNotNull();
        return found;
    }
}
