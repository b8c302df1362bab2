package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.EventOptions;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 10, point 7: the Slack tokens and the signing secret never reach logs, errors or metrics — also when
 * everything goes wrong: Slack refuses the tokens, requests are forged, the socket cannot open. Every log line of the
 * run is kept, at every level down to DEBUG, as text and as the JSON line {@code --log-format json} writes, and searched.
 */
@ServerTest
class SlackSecretsNeverLeakTest {

    private static final List<String> SECRETS = List.of(ConfigYaml.SLACK_BOT_TOKEN, ConfigYaml.SLACK_APP_TOKEN,
            ConfigYaml.SLACK_SIGNING_SECRET, ConfigYaml.BINDING_TOKEN);

    @TempDir
    Path dir;
    SlackRig rig;
    final List<String> lines = new CopyOnWriteArrayList<>();
    private final ch.qos.logback.classic.encoder.JsonEncoder json = dev.switchboard.log.LogFormat.jsonEncoder(
            (ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory());
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent e) {
            lines.add(e.getLoggerName() + " " + e.getFormattedMessage()
                    + (e.getThrowableProxy() == null ? "" : " " + e.getThrowableProxy().getMessage()));
            // the line as --log-format json writes it: its ids, stack frames and causes hold no secret either
            lines.add(new String(json.encode(e), java.nio.charset.StandardCharsets.UTF_8));
        }
    };
    private Level before;

    @BeforeEach
    void capture() {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        before = root.getLevel();
        root.setLevel(Level.DEBUG);
        appender.start();
        root.addAppender(appender);
    }

    @AfterEach
    void stop() {
        if (rig != null) {
            rig.close();
        }
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAppender(appender);
        root.setLevel(before);
    }

    private void assertNoSecretIn(String where, String text) {
        for (String s : SECRETS) {
            assertThat(text).as(where + " must not hold a secret").doesNotContain(s);
        }
        // nor the start of one (the SDK once logged a token's first 16 characters)
        assertThat(text).as(where).doesNotContain(ConfigYaml.SLACK_BOT_TOKEN.substring(0, 16))
                .doesNotContain(ConfigYaml.SLACK_APP_TOKEN.substring(0, 16));
    }

    @Test
    void notWhenSlackRefusesTheTokensOrRequestsAreForged() throws Exception {
        // the fake Slack knows other tokens: every call Switchboard makes is refused with invalid_auth
        rig = new SlackRig(dir, "events",
                FakeSlackOptions.defaults().withTokens("xoxb-some-other-bot-token", "xapp-some-other-app-token"),
                TestAgentOptions.echo("sre"), null, true);
        String ts = rig.slack.postAsUser(SlackRig.CHANNEL, null, SlackRig.ADA, rig.botMention() + " hi");
        var forged = rig.deliver(rig.slack.mentionEvent(SlackRig.CHANNEL, ts), EventOptions.defaults().forged());
        assertThat(forged.status()).isEqualTo(401);
        assertNoSecretIn("a 401's body", forged.body());
        var stale = rig.deliver(rig.slack.mentionEvent(SlackRig.CHANNEL, ts), EventOptions.defaults().shiftedBy(-600));
        assertNoSecretIn("a 401's body", stale.body());
        assertThat(rig.deliver(rig.slack.mentionEvent(SlackRig.CHANNEL, ts), EventOptions.defaults()).status()).isEqualTo(200);
        // the turn runs; showing its answer fails at Slack, which is logged
        await().until(() -> rig.agent.recorder().rpcRequests().stream().anyMatch(r -> r.isSend()));
        await().until(() -> lines.stream().anyMatch(l -> l.contains("invalid_auth") && l.contains("chat.postMessage")));
        assertThat(lines).anyMatch(l -> l.contains("auth.test failed: auth.test: invalid_auth"));
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(rig.app.baseUrl() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertNoSecretIn("/metrics", metrics.body());
        assertNoSecretIn("the log", String.join("\n", lines));
    }

    @Test
    void notWhenTheSocketCannotOpen() {
        rig = new SlackRig(dir, "socket",
                FakeSlackOptions.defaults().withTokens(ConfigYaml.SLACK_BOT_TOKEN, "xapp-some-other-app-token"),
                TestAgentOptions.echo("sre"), null, true);
        await().until(() -> lines.stream().anyMatch(l -> l.contains("socket mode could not connect")));
        assertThat(rig.slack.connected()).isFalse();
        assertNoSecretIn("the log", String.join("\n", lines));
    }
}
