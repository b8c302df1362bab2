package dev.switchboard.chat.slack;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.BridgeConfig;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.Delivery;
import dev.switchboard.testkit.slack.EventOptions;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import dev.switchboard.testkit.slack.SlackEvents;
import dev.switchboard.testkit.slack.SlackMessage;
import dev.switchboard.testkit.Recorder;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;

/**
 * One Switchboard with a Slack app on a fake Slack, and a testkit agent behind its binding: what the Slack tests
 * drive. People write in the fake workspace ({@link #mention}, {@link #reply}); the event reaches Switchboard the
 * way the app's mode says (a signed POST, or an envelope over the socket).
 */
final class SlackRig implements AutoCloseable {

    static final String ADA = "U0ADA0001";
    static final String GRACE = "U0GRACE01";
    static final String CHANNEL = BridgeConfig.SLACK_CHANNEL;

    final Vertx vertx = Vertx.vertx();
    /** the testkit agent; null for a kagent rig (see {@link #recorder}) */
    final TestAgent agent;
    /** what the agent was sent */
    final Recorder recorder;
    private final HttpServer agentServer;
    final FakeSlack slack;
    final String mode;
    private final BridgeConfig config;
    SwitchboardApp app;

    SlackRig(Path dir, String mode, FakeSlackOptions slackOptions, TestAgentOptions agentOptions, String bindingSpec) {
        this(dir, mode, slackOptions, agentOptions, bindingSpec, false);
    }

    /** @param fakesOwnTokens the fake Slack keeps the tokens of {@code slackOptions} (to refuse Switchboard's) */
    SlackRig(Path dir, String mode, FakeSlackOptions slackOptions, TestAgentOptions agentOptions, String bindingSpec,
            boolean fakesOwnTokens) {
        this(dir, mode, slackOptions, agentOptions, bindingSpec, fakesOwnTokens, c -> c);
    }

    /** @param more further resources for the configuration (e.g. a Trigger on the Binding {@code slack-sre}) */
    SlackRig(Path dir, String mode, FakeSlackOptions slackOptions, TestAgentOptions agentOptions, String bindingSpec,
            boolean fakesOwnTokens, java.util.function.UnaryOperator<BridgeConfig> more) {
        this(dir, mode, slackOptions, agentOptions, bindingSpec, fakesOwnTokens, more, false);
    }

    /** @param kagent the agent speaks kagent-v1, served where kagent serves it ({@code <url>/agents/default/sre}) */
    private SlackRig(Path dir, String mode, FakeSlackOptions slackOptions, TestAgentOptions agentOptions, String bindingSpec,
            boolean fakesOwnTokens, java.util.function.UnaryOperator<BridgeConfig> more, boolean kagent) {
        this.mode = mode;
        String agentUrl;
        if (kagent) {
            this.agent = null;
            this.recorder = new Recorder();
            java.util.concurrent.atomic.AtomicReference<Router> main = new java.util.concurrent.atomic.AtomicReference<>();
            this.agentServer = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                    .requestHandler(r -> main.get().handle(r)).listen().await();
            agentUrl = "http://127.0.0.1:" + agentServer.actualPort();
            Router router = Router.router(vertx);
            router.route("/agents/default/sre/*").subRouter(TestAgent.router(vertx, agentOptions,
                    agentUrl + "/agents/default/sre", recorder));
            main.set(router);
        } else {
            this.agent = TestAgent.start(vertx, agentOptions, 0).await();
            this.recorder = agent.recorder();
            this.agentServer = null;
            agentUrl = agent.url();
        }
        this.slack = FakeSlack.start(vertx, fakesOwnTokens ? slackOptions
                : slackOptions.withTokens(BridgeConfig.SLACK_BOT_TOKEN, BridgeConfig.SLACK_APP_TOKEN)).await();
        slack.addUser(ADA, "Ada", "Ada Lovelace", "ada@example.com");
        slack.addUser(GRACE, "Grace", "Grace Hopper", "grace@example.com");
        BridgeConfig c = BridgeConfig.server(dir.resolve("slack.db"), false, BridgeConfig.QUICK_CONTRACT);
        this.config = kagent ? c.slackKagent("sre", agentUrl, mode, slack.apiUrl(), bindingSpec)
                : c.slackAgent("sre", agentUrl, mode, slack.apiUrl(), bindingSpec);
        more.apply(this.config);
        this.app = config.start(vertx);
    }

    /** A Slack app in {@code mode} and the testkit's kagent-v1 agent behind the binding. */
    static SlackRig kagent(Path dir, String mode) {
        return new SlackRig(dir, mode, FakeSlackOptions.defaults(), TestAgentOptions.kagent("sre"), null, false, c -> c, true);
    }

    SlackRig(Path dir, String mode) {
        this(dir, mode, FakeSlackOptions.defaults(), TestAgentOptions.echo("sre"), null);
    }

    /** Stops Switchboard (gracefully) and starts it again on the same store. */
    void restart() {
        app.close().await();
        app = config.start(vertx);
    }

    String eventsUrl() {
        return app.baseUrl() + "/slack/events";
    }

    SlackEvents events() {
        return slack.events(BridgeConfig.SLACK_SIGNING_SECRET);
    }

    String botMention() {
        return "<@" + slack.options().botUserId() + ">";
    }

    /** A person mentions the bot: the message is written in the workspace and its app_mention event delivered. */
    Sent mention(String user, String text, String threadTs) {
        String ts = slack.postAsUser(CHANNEL, threadTs, user, botMention() + " " + text);
        return new Sent(ts, deliver(slack.mentionEvent(CHANNEL, ts), EventOptions.defaults()));
    }

    /** A person replies in a thread without mentioning the bot: a message event. */
    Sent reply(String user, String text, String threadTs) {
        String ts = slack.postAsUser(CHANNEL, threadTs, user, text);
        return new Sent(ts, deliver(slack.messageEvent(CHANNEL, ts), EventOptions.defaults()));
    }

    /** Delivers an inner event: POSTed and signed in events mode (the answer returned), pushed in socket mode. */
    Delivery deliver(JsonObject event, EventOptions options) {
        if (mode.equals("socket")) {
            String envelopeId = options.eventId() == null ? slack.pushEvent(event) : slack.pushEvent(event, options.eventId());
            return new Delivery(0, envelopeId, options.eventId(), null, java.util.Map.of());
        }
        return events().deliver(eventsUrl(), event, options);
    }

    /** What the bot wrote in a thread, oldest first. */
    List<SlackMessage> botReplies(String threadTs) {
        return slack.thread(CHANNEL, threadTs).stream().filter(SlackMessage::fromBot).toList();
    }

    record Sent(String ts, Delivery delivery) {}

    @Override
    public void close() {
        try {
            if (app != null) {
                app.close().await();
            }
        } finally {
            slack.close().await();
            if (agent != null) {
                agent.close().await();
            } else {
                agentServer.close().await();
            }
            vertx.close().await();
        }
    }
}
