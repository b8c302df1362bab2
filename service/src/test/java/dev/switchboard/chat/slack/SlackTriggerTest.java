package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import dev.switchboard.testkit.slack.SlackMessage;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Trigger on a Slack Binding (issue 11, Triggers): the alert group's thread starts with a root message the bot
 * posts in the Binding's first channel; the agent answers in its thread; the group's later notification is a
 * follow-up turn in the same Slack thread.
 */
@ServerTest
class SlackTriggerTest {

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    private JsonNode post(String body) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(rig.app.baseUrl() + "/triggers/alerts"))
                .header("Authorization", "Bearer " + ConfigYaml.TRIGGER_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return ChatApi.read(r.body());
    }

    private static String payload(String status) {
        return """
                {"version": "4", "groupKey": "{}:{alertname=\\"DiskFull\\"}", "status": "%1$s", "receiver": "switchboard",
                 "groupLabels": {"alertname": "DiskFull"}, "commonLabels": {"alertname": "DiskFull"},
                 "alerts": [{"status": "%1$s", "labels": {"alertname": "DiskFull", "instance": "db-1 <!channel>"},
                             "annotations": {}, "startsAt": "2024-05-01T10:00:00Z", "fingerprint": "fp1"}]}
                """.formatted(status);
    }

    @Test
    void aGroupStartsASlackThreadAndItsFollowUpsGoOnInIt() throws Exception {
        rig = new SlackRig(dir, "events", FakeSlackOptions.defaults(), TestAgentOptions.echo("sre"), null, false,
                c -> c.trigger("alerts", "slack-sre", "alertmanager", null));
        JsonNode first = post(payload("firing"));
        String threadId = first.path("threadId").asText();
        assertThat(threadId).startsWith("slack:" + SlackRig.CHANNEL + ":");
        String ts = threadId.substring(threadId.lastIndexOf(':') + 1);
        List<SlackMessage> roots = rig.slack.messages(SlackRig.CHANNEL).stream()
                .filter(m -> m.fromBot() && m.threadTs() == null).toList();
        assertThat(roots).hasSize(1);
        assertThat(roots.get(0).ts()).isEqualTo(ts);
        assertThat(roots.get(0).text()).contains("[FIRING] DiskFull");
        assertThat(rig.botReplies(ts).get(0).ts()).isEqualTo(ts);
        // the thread holds the root message, then the agent's answer
        await().until(() -> rig.botReplies(ts).size() == 2);

        JsonNode resolved = post(payload("resolved"));
        assertThat(resolved.path("threadId").asText()).isEqualTo(threadId);
        assertThat(post(payload("resolved")).path("duplicate").asBoolean()).isTrue();
        await().until(() -> rig.botReplies(ts).size() == 3);
        assertThat(rig.slack.messages(SlackRig.CHANNEL).stream().filter(m -> m.fromBot() && m.threadTs() == null))
                .as("one root message for the group").hasSize(1);
        List<RecordedRequest> sends = rig.agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend).toList();
        assertThat(sends).as("replies: %s", rig.botReplies(ts)).hasSize(2);
        assertThat(sends).allSatisfy(s -> {
            assertThat(s.text()).startsWith("Alertmanager notification");
            assertThat(s.metadata() == null || !s.metadata().has("agentkourier.dev/actor")).isTrue();
        });
        assertThat(sends.get(1).contextId()).isNotBlank();
    }
}
