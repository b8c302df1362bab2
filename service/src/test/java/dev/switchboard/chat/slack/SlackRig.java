package dev.switchboard.chat.slack;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.SwitchboardFixture;
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
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The Slack tests' helper: a Switchboard ({@link SwitchboardFixture}) with a Slack app on the fixture's fake Slack, a
 * testkit agent {@code sre} behind its binding, and what people do in the workspace. People write there
 * ({@link #mention}, {@link #reply}, {@link #buttonClick}); the event reaches Switchboard the way the app's mode says
 * (a signed POST, or an envelope over the socket). It starts nothing itself: the fixture starts and closes the agent, the
 * fake Slack and the app. Public for the security tests, which drive Slack the same way.
 */
public final class SlackRig implements AutoCloseable {

    public static final String ADA = "U0ADA0001";
    public static final String GRACE = "U0GRACE01";
    public static final String CHANNEL = ConfigYaml.SLACK_CHANNEL;
    /** the action ids of an approval's buttons */
    public static final String APPROVE = SlackBlocks.APPROVE;
    public static final String REJECT = SlackBlocks.REJECT;

    private final SwitchboardFixture fixture;
    final Vertx vertx;
    /** the testkit agent; null for a kagent rig (see {@link #recorder}) */
    final TestAgent agent;
    /** what the agent was sent */
    public final Recorder recorder;
    public final FakeSlack slack;
    public final String mode;
    public SwitchboardApp app;

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
            boolean fakesOwnTokens, UnaryOperator<ConfigYaml> more) {
        this(fixture(dir, mode, slackOptions, agentOptions, bindingSpec, fakesOwnTokens, more, false), mode, false);
    }

    /**
     * The Slack tests' Switchboard: the agent {@code sre} (a kagent-v1 one, served where kagent serves it, when
     * {@code kagent}), the fake Slack with Ada and Grace in its workspace, and the app with the SlackApp {@code main}
     * in {@code mode} on it, its Binding {@code slack-sre} having the extra spec lines {@code bindingSpec}.
     *
     * @param fakesOwnTokens the fake Slack keeps the tokens of {@code slackOptions} (to refuse Switchboard's)
     * @param more further resources for the configuration (e.g. a Trigger on the Binding {@code slack-sre})
     */
    static SwitchboardFixture fixture(Path dir, String mode, FakeSlackOptions slackOptions,
            TestAgentOptions agentOptions, String bindingSpec, boolean fakesOwnTokens, UnaryOperator<ConfigYaml> more,
            boolean kagent) {
        SwitchboardFixture.Builder b = SwitchboardFixture.builder()
                .slack(fakesOwnTokens ? slackOptions
                        : slackOptions.withTokens(ConfigYaml.SLACK_BOT_TOKEN, ConfigYaml.SLACK_APP_TOKEN));
        b = kagent ? b.kagentAgent("sre", agentOptions) : b.agent("sre", agentOptions);
        return b.yaml(started -> {
            // the workspace's people, there before the app's first event
            started.slack().addUser(ADA, "Ada", "Ada Lovelace", "ada@example.com");
            started.slack().addUser(GRACE, "Grace", "Grace Hopper", "grace@example.com");
            ConfigYaml c = ConfigYaml.server(dir.resolve("slack.db"), false, ConfigYaml.QUICK_CONTRACT);
            String apiUrl = started.slack().apiUrl();
            return more.apply(kagent ? c.slackKagent("sre", started.url("sre"), mode, apiUrl, bindingSpec)
                    : c.slackAgent("sre", started.url("sre"), mode, apiUrl, bindingSpec));
        }).start();
    }

    /**
     * The helper on {@code fixture}, which has the agent {@code sre} (a {@link SwitchboardFixture.Builder#kagentAgent
     * kagent one} when {@code kagent}), a fake Slack and a SlackApp in {@code mode}; closing the helper closes the
     * fixture.
     */
    SlackRig(SwitchboardFixture fixture, String mode, boolean kagent) {
        this.fixture = fixture;
        this.vertx = fixture.vertx();
        this.mode = mode;
        this.slack = fixture.slack();
        this.agent = kagent ? null : fixture.agent("sre");
        this.recorder = agent != null ? agent.recorder() : fixture.kagentAgent("sre").recorder();
        this.app = fixture.app();
    }

    /** A Slack app in {@code mode} and the testkit's kagent-v1 agent behind the binding. */
    public static SlackRig kagent(Path dir, String mode) {
        return kagent(dir, mode, null);
    }

    /** A kagent agent behind an app whose {@code spec.streaming} is {@code streaming}, on a workspace that streams. */
    static SlackRig kagentStreaming(Path dir, String mode, String streaming) {
        return new SlackRig(fixture(dir, mode + "\n  streaming: " + streaming,
                FakeSlackOptions.defaults().withNativeStreaming(true), TestAgentOptions.kagent("sre"), null, false,
                c -> c, true), mode, true);
    }

    /** As {@link #kagent(Path, String)}, with extra lines of the Binding's spec (e.g. its questions' approvers). */
    public static SlackRig kagent(Path dir, String mode, String bindingSpec) {
        return new SlackRig(fixture(dir, mode, FakeSlackOptions.defaults(), TestAgentOptions.kagent("sre"), bindingSpec,
                false, c -> c, true), mode, true);
    }

    /**
     * A Slack app in {@code mode} whose {@code spec.streaming} is {@code streaming} (native, edit, auto), on a fake
     * workspace that takes native streaming when {@code workspaceStreams}; the echo agent behind the binding.
     */
    static SlackRig streaming(Path dir, String mode, String streaming, boolean workspaceStreams) {
        return new SlackRig(fixture(dir, mode + "\n  streaming: " + streaming,
                FakeSlackOptions.defaults().withNativeStreaming(workspaceStreams), TestAgentOptions.echo("sre"), null,
                false, c -> c, false), mode, false);
    }

    /**
     * A Slack app in {@code mode} whose AgentBackend {@code sre} lists {@code skills} (a YAML flow sequence), for the
     * agent view's suggested prompts.
     */
    static SlackRig withSkills(Path dir, String mode, String skills) {
        SwitchboardFixture f = SwitchboardFixture.builder()
                .slack(FakeSlackOptions.defaults().withTokens(ConfigYaml.SLACK_BOT_TOKEN, ConfigYaml.SLACK_APP_TOKEN))
                .agent("sre", TestAgentOptions.echo("sre"))
                .yaml(started -> {
                    started.slack().addUser(ADA, "Ada", "Ada Lovelace", "ada@example.com");
                    return ConfigYaml.server(dir.resolve("slack.db"), false, ConfigYaml.QUICK_CONTRACT).slackBackend("sre",
                            "{url: \"" + started.url("sre") + "\", skills: " + skills + "}", mode,
                            started.slack().apiUrl(), null);
                }).start();
        return new SlackRig(f, mode, false);
    }

    /** As {@link #echo}, with traces sent to the OTLP/HTTP endpoint {@code otlpEndpoint}. */
    static SlackRig traced(Path dir, String mode, String otlpEndpoint, String bindingSpec) {
        SwitchboardFixture f = SwitchboardFixture.builder()
                .slack(FakeSlackOptions.defaults().withTokens(ConfigYaml.SLACK_BOT_TOKEN, ConfigYaml.SLACK_APP_TOKEN))
                .agent("sre", TestAgentOptions.echo("sre"))
                .yaml(started -> {
                    started.slack().addUser(ADA, "Ada", "Ada Lovelace", "ada@example.com");
                    return ConfigYaml.server(dir.resolve("slack.db"), "tracing:\n  otlpEndpoint: " + otlpEndpoint
                            + "\n  serviceName: switchboard-under-test").slackAgent("sre", started.url("sre"), mode,
                            started.slack().apiUrl(), bindingSpec);
                }).start();
        return new SlackRig(f, mode, false);
    }

    /** A Slack app in {@code mode}, the echo agent behind its binding, which has the extra spec lines {@code bindingSpec}. */
    public static SlackRig echo(Path dir, String mode, String bindingSpec) {
        return new SlackRig(dir, mode, FakeSlackOptions.defaults(), TestAgentOptions.echo("sre"), bindingSpec);
    }

    SlackRig(Path dir, String mode) {
        this(dir, mode, FakeSlackOptions.defaults(), TestAgentOptions.echo("sre"), null);
    }

    /** Stops Switchboard (gracefully) and starts it again on the same store. */
    void restart() {
        app = fixture.restart().app();
    }

    String eventsUrl() {
        return app.baseUrl() + "/slack/events";
    }

    SlackEvents events() {
        return slack.events(ConfigYaml.SLACK_SIGNING_SECRET);
    }

    String botMention() {
        return "<@" + slack.options().botUserId() + ">";
    }

    /** A person mentions the bot: the message is written in the workspace and its app_mention event delivered. */
    public Sent mention(String user, String text, String threadTs) {
        String ts = slack.postAsUser(CHANNEL, threadTs, user, botMention() + " " + text);
        return new Sent(ts, deliver(slack.mentionEvent(CHANNEL, ts), EventOptions.defaults()));
    }

    /** A person replies in a thread without mentioning the bot: a message event. */
    public Sent reply(String user, String text, String threadTs) {
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
    public List<SlackMessage> botReplies(String threadTs) {
        return slack.thread(CHANNEL, threadTs).stream().filter(SlackMessage::fromBot).toList();
    }

    public record Sent(String ts, Delivery delivery) {}

    // ---- clicks ----

    /** The elements of a message's actions blocks (buttons, selects). */
    public static List<JsonObject> elements(SlackMessage m) {
        io.vertx.core.json.JsonArray blocks = m.blocks() == null ? new io.vertx.core.json.JsonArray()
                : new io.vertx.core.json.JsonArray(m.blocks());
        return blocks.stream().map(JsonObject.class::cast).filter(b -> "actions".equals(b.getString("type")))
                .flatMap(b -> b.getJsonArray("elements").stream().map(JsonObject.class::cast)).toList();
    }

    /** A message's element {@code actionId}, if it shows one. */
    public static java.util.Optional<JsonObject> element(SlackMessage m, String actionId) {
        return elements(m).stream().filter(e -> actionId.equals(e.getString("action_id"))).findFirst();
    }

    /** The bot's message in the thread that shows element {@code actionId}, once it does. */
    public SlackMessage awaitElement(String threadTs, String actionId) {
        org.awaitility.Awaitility.await().until(() -> botReplies(threadTs).stream()
                .anyMatch(m -> element(m, actionId).isPresent()));
        return botReplies(threadTs).stream().filter(m -> element(m, actionId).isPresent()).findFirst().orElseThrow();
    }

    /**
     * A click on button {@code actionId} (with {@code value}) of {@code message}, as Slack sends it: a block_actions
     * payload naming the clicker ({@code user.team_id} their own team) and the workspace ({@code team.id}).
     */
    public JsonObject buttonClick(SlackMessage message, String threadTs, String user, String userTeam, String actionId,
            String value) {
        return new JsonObject().put("type", "block_actions")
                .put("team", new JsonObject().put("id", slack.options().teamId()))
                .put("user", new JsonObject().put("id", user).put("team_id", userTeam))
                .put("channel", new JsonObject().put("id", CHANNEL))
                .put("container", new JsonObject().put("type", "message").put("message_ts", message.ts())
                        .put("channel_id", CHANNEL).put("thread_ts", threadTs))
                .put("message", new JsonObject().put("ts", message.ts()).put("thread_ts", threadTs))
                .put("actions", new io.vertx.core.json.JsonArray().add(new JsonObject().put("action_id", actionId)
                        .put("type", "button").put("value", value)));
    }

    /** Delivers an interaction payload the app's way: a signed POST to /slack/interactions, or over the socket. */
    public void deliverInteraction(JsonObject payload) {
        if (mode.equals("socket")) {
            slack.pushInteraction(payload);
        } else {
            Delivery d = events().interaction(app.baseUrl() + "/slack/interactions", payload);
            if (d.status() != 200) {
                throw new AssertionError("interaction answered " + d.status());
            }
        }
    }

    @Override
    public void close() {
        fixture.close();
    }
}
