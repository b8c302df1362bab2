package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.EventOptions;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import dev.switchboard.testkit.slack.SlackMessage;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, Bindings of the slack platform, on the SlackApp running since start and a fake Slack: a Binding created
 * in the cluster makes a mention in its channel a turn; moved to another channel, the old one is ignored and the new
 * one answered; deleted, a turn still running ends with the notice saying why. One naming a SlackApp that is not
 * running says a restart is needed, and binds nothing (a Trigger on it is not in force either).
 */
@ServerTest
class SlackBindingsFollowTheClusterTest {

    private static final String BOT = "xoxb-live-bot-token-7c1d";
    private static final String SIGNING = "live-signing-secret-4e2a";
    private static final String ADA = "U0ADA0001";
    private static final String FIRST = "C0FIRST01";
    private static final String SECOND = "C0SECOND1";

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo")
            .withSlack(FakeSlackOptions.defaults().withTokens(BOT, "xapp-unused-app-token-0001"));

    String baseUrl;

    @BeforeEach
    void start() {
        slack().addUser(ADA, "Ada", "Ada Lovelace", "ada@example.com");
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.backendSecret("slack-bot", "token", BOT); // sent to the fake Slack's apiUrl: opted in
        cluster.secret("slack-signing", "secret", SIGNING);
        cluster.apply(slackApp("main"));
        baseUrl = cluster.start().app().baseUrl();
        cluster.awaitReady("SlackApp", "main", "True");
    }

    @Test
    void aSlackBindingAddedChangedAndRemovedIsFollowedAtTheNextEvent() {
        // nothing bound yet: the mention is acknowledged and starts nothing
        String unbound = mention(FIRST, "before the binding");

        cluster.apply(binding("ops", "main", FIRST));
        cluster.awaitReady("Binding", "ops", "True");
        String bound = mention(FIRST, "now bound");
        awaitBotReply(FIRST, bound, "now bound");
        // one app's events are handled in order: the first mention was handled, and started nothing
        assertThat(slack().thread(FIRST, unbound)).noneMatch(SlackMessage::fromBot);
        assertThat(sends()).hasSize(1);

        cluster.apply(binding("ops", "main", SECOND));
        cluster.awaitReady("Binding", "ops", "True");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> cluster.ready("Binding", "ops").path("observedGeneration").asLong() == 2);
        String old = mention(FIRST, "the old channel");
        String moved = mention(SECOND, "the new channel");
        awaitBotReply(SECOND, moved, "the new channel");
        assertThat(slack().thread(FIRST, old)).as("the channel no longer bound").noneMatch(SlackMessage::fromBot);
        assertThat(sends()).hasSize(2);

        // a turn running when its Binding is deleted ends with the notice, shown in its Slack thread
        String slow = mention(SECOND, "/slow 60000");
        await().atMost(Duration.ofSeconds(60)).until(() -> sends().size() == 3);
        cluster.delete("Binding", "ops");
        awaitBotReply(SECOND, slow, "Binding was removed from Switchboard");
        String after = mention(SECOND, "after the removal");
        // bound again, under another name: the channel answers again (and the mention above was handled before)
        cluster.apply(binding("ops2", "main", SECOND));
        cluster.awaitReady("Binding", "ops2", "True");
        String rebound = mention(SECOND, "bound again");
        awaitBotReply(SECOND, rebound, "bound again");
        assertThat(slack().thread(SECOND, after)).as("the channel while unbound").noneMatch(SlackMessage::fromBot);
        assertThat(sends()).hasSize(4);
    }

    @Test
    void aSlackBindingOnASlackAppNotRunningSaysARestartIsNeededAndBindsNothing() {
        cluster.apply(slackApp("late"));
        cluster.apply(binding("ops", "late", FIRST));
        JsonNode c = cluster.awaitReady("Binding", "ops", "False");
        assertThat(c.path("reason").asText()).isEqualTo("RestartRequired");
        assertThat(c.path("message").asText()).contains("SlackApp 'late' is not running").contains("restart Switchboard");
        assertThat(cluster.awaitReady("SlackApp", "late", "False").path("reason").asText()).isEqualTo("RestartRequired");
        // a Trigger on that Binding is not in force either: the Binding it names does not run
        cluster.secret("alerts", "token", "a-trigger-token-0123456");
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: Trigger
                metadata: {name: alerts}
                spec:
                  bindingRef: {name: ops}
                  format: generic
                  tokenSecretRef: {name: alerts, key: token}
                """);
        JsonNode trigger = cluster.awaitReady("Trigger", "alerts", "False");
        assertThat(trigger.path("reason").asText()).isEqualTo("BindingNotFound");
        assertThat(trigger.path("message").asText()).contains("Binding 'ops' exists but is not Ready");
        cluster.apply(binding("other", "absent", SECOND));
        assertThat(cluster.awaitReady("Binding", "other", "False").path("reason").asText()).isEqualTo("SlackAppNotFound");

        // the running app's channels stay unbound: a mention there starts nothing; a bound one shows the order
        String ignored = mention(FIRST, "not for the late app");
        cluster.apply(binding("ops-main", "main", "C0THIRD01"));
        cluster.awaitReady("Binding", "ops-main", "True");
        String bound = mention("C0THIRD01", "on the running app");
        awaitBotReply("C0THIRD01", bound, "on the running app");
        assertThat(slack().thread(FIRST, ignored)).noneMatch(SlackMessage::fromBot);
        assertThat(sends()).hasSize(1);
    }

    @Test
    void aSlackBindingMovedToASlackAppNotRunningKeepsItsVersionInForceAndOneOnADeletedAppBindsNothing() {
        cluster.apply(binding("ops", "main", FIRST));
        cluster.awaitReady("Binding", "ops", "True");
        cluster.apply(slackApp("late"));
        cluster.apply(binding("ops", "late", SECOND));
        JsonNode c = cluster.awaitReady("Binding", "ops", "False");
        assertThat(c.path("reason").asText()).isEqualTo("RestartRequired");
        assertThat(c.path("message").asText()).contains("the version naming SlackApp 'main' stays in force");
        String kept = mention(FIRST, "still bound");
        awaitBotReply(FIRST, kept, "still bound");

        // the running SlackApp deleted: its connection runs until the restart, but no Binding names it any more
        cluster.apply(binding("ops", "main", FIRST));
        cluster.awaitReady("Binding", "ops", "True");
        cluster.delete("SlackApp", "main");
        assertThat(cluster.awaitReady("Binding", "ops", "False").path("reason").asText()).isEqualTo("SlackAppNotFound");
        String ignored = mention(FIRST, "after the app was deleted");
        cluster.apply(slackApp("main"));
        cluster.awaitReady("Binding", "ops", "True");
        String back = mention(FIRST, "the app is back");
        awaitBotReply(FIRST, back, "the app is back");
        assertThat(slack().thread(FIRST, ignored)).noneMatch(SlackMessage::fromBot);
        assertThat(sends()).hasSize(2);
    }

    /** Ada mentions the bot in {@code channel}: the message is written and its event delivered, signed. */
    private String mention(String channel, String text) {
        String ts = slack().postAsUser(channel, null, ADA, "<@" + slack().options().botUserId() + "> " + text);
        int status = slack().events(SIGNING).deliver(baseUrl + "/slack/events", slack().mentionEvent(channel, ts),
                EventOptions.defaults()).status();
        assertThat(status).as("the event is acknowledged").isEqualTo(200);
        return ts;
    }

    private void awaitBotReply(String channel, String threadTs, String containing) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .alias("the bot answers in " + channel + " with " + containing)
                .until(() -> slack().thread(channel, threadTs).stream()
                        .anyMatch(m -> m.fromBot() && m.text().contains(containing)));
    }

    private FakeSlack slack() {
        return cluster.slack();
    }

    private List<RecordedRequest> sends() {
        return cluster.agent().recorder().rpcRequests().stream().filter(RecordedRequest::isSend).toList();
    }

    private String slackApp(String name) {
        return """
                apiVersion: switchboard.dev/v1
                kind: SlackApp
                metadata: {name: %s}
                spec:
                  mode: events
                  botToken: {secretRef: {name: slack-bot, key: token}}
                  signingSecret: {secretRef: {name: slack-signing, key: secret}}
                  apiUrl: "%s"
                """.formatted(name, slack().apiUrl());
    }

    private static String binding(String name, String app, String channel) {
        return """
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: %s}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: slack, app: %s, channels: [%s]}
                  identity: {userId: alice}
                """.formatted(name, app, channel);
    }
}
