package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, H1: a trigger's turn has a messageId derived from the trigger and the notification, so that a delivery
 * made again is a duplicate. A web-chat caller who computes that id and posts a message under it first must not make
 * the real notification a "duplicate" that no agent ever sees.
 */
@ServerTest
class AlertsCannotBeSilencedByAPlantedMessageIdTest {

    private static final String NOTIFICATION = "{\"title\": \"Disk full on db-1\", \"text\": \"98% used\", \"key\": \"db-1\"}";

    @TempDir
    Path dir;
    Vertx vertx;
    TestAgent agent;
    SwitchboardApp app;

    @AfterEach
    void stop() {
        TestServers.stop(app, agent, vertx);
    }

    /** What the trigger names the notification's turn (Triggers.messageId, for the generic format): public knowledge. */
    private static String triggerMessageId(String trigger, String key, String title, String text) throws Exception {
        String identity = "[\"generic\",\"" + key + "\",\"" + title + "\",\"" + text + "\",\"{}\"]";
        byte[] d = MessageDigest.getInstance("SHA-256").digest((trigger + "\n" + identity).getBytes(StandardCharsets.UTF_8));
        return "trigger-" + trigger + "-" + HexFormat.of().formatHex(d).substring(0, 40);
    }

    @Test
    void aMessagePostedUnderTheAlertsIdDoesNotSilenceIt() throws Exception {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("sre"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("chat.db"), false, ConfigYaml.QUICK_CONTRACT)
                .webBackend("sre", agent.url(), null)
                .trigger("notes", "web-sre", "generic", null)).start().app();
        ChatApi chat = new ChatApi(app.baseUrl());
        String planted = triggerMessageId("notes", "db-1", "Disk full on db-1", "98% used");

        ChatApi.Sent decoy = chat.newThread("sre", "nothing to see here", planted, Map.of());
        chat.awaitFinal(decoy);

        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(app.baseUrl() + "/triggers/notes"))
                .header("Authorization", "Bearer " + ConfigYaml.TRIGGER_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(NOTIFICATION)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode accepted = ChatApi.read(r.body());
        assertThat(accepted.path("duplicate").asBoolean()).as("the alert is news: %s", r.body()).isFalse();
        assertThat(accepted.path("threadId").asText()).isNotEqualTo(decoy.threadId());
        String alert = accepted.path("messageId").asText();
        assertThat(alert).isNotEqualTo(decoy.messageId());

        ChatApi.Post done = chat.awaitFinal(new ChatApi.Sent(accepted.path("threadId").asText(), alert));
        assertThat(done.state()).isEqualTo("completed");
        assertThat(agent.recorder().rpcRequests().stream().filter(RecordedRequest::isSend).map(RecordedRequest::messageId))
                .as("the agent was sent the alert").contains(alert);
        assertThat(chat.answer(accepted.path("threadId").asText(), alert)).contains("Disk full on db-1");
    }
}
