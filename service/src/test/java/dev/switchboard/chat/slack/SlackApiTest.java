package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import dev.switchboard.testkit.slack.SlackMessage;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Web API client on the fake Slack: what it does when Slack's answer is lost. */
@ServerTest
class SlackApiTest {

    Vertx vertx;
    FakeSlack slack;
    SlackApi api;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        slack = FakeSlack.start(vertx, FakeSlackOptions.defaults()
                .withTokens(ConfigYaml.SLACK_BOT_TOKEN, ConfigYaml.SLACK_APP_TOKEN)).await();
        api = new SlackApi(slack.apiUrl(), ConfigYaml.SLACK_BOT_TOKEN);
    }

    @AfterEach
    void stop() {
        slack.close().await();
        vertx.close().await();
    }

    /**
     * A chat.postMessage whose connection closes before the answer is not sent again by the HTTP client, even on a
     * pooled (kept-alive) connection, where OkHttp would by default retry it silently: the post is in Slack, and a
     * second one would be a duplicate message the poster never learns of.
     */
    @Test
    void aPostWhoseAnswerIsLostIsNotResentOnAPooledConnection() throws Exception {
        String parent = slack.postAsUser(ConfigYaml.SLACK_CHANNEL, null, "U0ADA0001", "hello");
        for (int i = 0; i < 3; i++) {
            api.authTest(); // the connection the post will reuse
        }
        slack.dropAfterPerforming("chat.postMessage", 1);
        assertThatThrownBy(() -> api.post(ConfigYaml.SLACK_CHANNEL, parent, "lost answer", "p1", 0))
                .isInstanceOf(SlackApi.Failure.class);
        assertThat(slack.calls("chat.postMessage")).as("sent once").hasSize(1);
        assertThat(slack.thread(ConfigYaml.SLACK_CHANNEL, parent)).filteredOn(SlackMessage::fromBot).hasSize(1);
        assertThat(api.findPosted(ConfigYaml.SLACK_CHANNEL, parent, "p1", 0)).isPresent();
    }
}
