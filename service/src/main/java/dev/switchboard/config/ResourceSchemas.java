package dev.switchboard.config;

import dev.switchboard.config.FieldSchema.Flag;
import dev.switchboard.config.FieldSchema.Obj;
import dev.switchboard.config.FieldSchema.ObjectList;
import dev.switchboard.config.FieldSchema.Span;
import dev.switchboard.config.FieldSchema.Text;
import dev.switchboard.config.FieldSchema.TextList;
import dev.switchboard.config.FieldSchema.TextMap;
import dev.switchboard.config.FieldSchema.WholeNumber;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.trigger.TriggerFormat;
import dev.switchboard.trigger.TriggerSettings;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code spec} of AgentBackend, Binding, SlackApp and Trigger, field by field, with the loader's defaults taken
 * from the same constants the loader uses. The CRDs are generated from this; the loader refuses fields it does not
 * list and values of the wrong type ({@link ShapeCheck}); ResourceSchemaConformanceTest holds the loader's other
 * checks (required, enums, minimums) to it.
 */
public final class ResourceSchemas {

    private ResourceSchemas() {}

    private static final Column READY = new Column("Ready", "string", ".status.conditions[?(@.type==\"Ready\")].status",
            "Whether Switchboard applied the resource; the condition's message says why not");
    private static final Column AGE = new Column("Age", "date", ".metadata.creationTimestamp", "");

    private record Column(String name, String type, String jsonPath, String description) {
        ResourceKind.Column column() {
            return new ResourceKind.Column(name, type, jsonPath, description);
        }
    }

    public static final ResourceKind AGENT_BACKEND = new ResourceKind("AgentBackend", "agentbackends", "agentbackend",
            List.of("ab"),
            "An A2A agent (or a kagent agent) that Switchboard's gateway serves at /a2a/{metadata.name} and Bindings call.",
            agentBackendSpec(), columns(
                    new Column("URL", "string", ".spec.url", "The agent's JSON-RPC endpoint"),
                    new Column("Dialect", "string", ".spec.dialect", "a2a or kagent-v1")));

    public static final ResourceKind BINDING = new ResourceKind("Binding", "bindings", "binding", List.of("sbb"),
            "Chat channels (web chat or Slack) connected to an AgentBackend, with the identity the bridge calls it as.",
            bindingSpec(), columns(
                    new Column("Backend", "string", ".spec.backendRef.name", "The AgentBackend called"),
                    new Column("Platform", "string", ".spec.chat.platform", "web or slack")));

    public static final ResourceKind SLACK_APP = new ResourceKind("SlackApp", "slackapps", "slackapp", List.of(),
            "A Slack app (one workspace) whose channels Bindings connect to agents.",
            slackAppSpec(), columns(new Column("Mode", "string", ".spec.mode", "events (HTTP) or socket (Socket Mode)")));

    public static final ResourceKind TRIGGER = new ResourceKind("Trigger", "triggers", "trigger", List.of(),
            "An authenticated webhook at /triggers/{metadata.name} (Alertmanager or generic) that opens a thread in a "
                    + "Binding's first channel and hands it to the Binding's agent.",
            triggerSpec(), columns(
                    new Column("Binding", "string", ".spec.bindingRef.name", "The Binding whose channel receives the threads"),
                    new Column("Format", "string", ".spec.format", "alertmanager or generic")));

    public static final List<ResourceKind> ALL = List.of(AGENT_BACKEND, BINDING, SLACK_APP, TRIGGER);

    public static Optional<ResourceKind> of(String kind) {
        return ALL.stream().filter(k -> k.kind().equals(kind)).findFirst();
    }

    private static List<ResourceKind.Column> columns(Column... own) {
        List<ResourceKind.Column> out = new java.util.ArrayList<>();
        for (Column c : own) {
            out.add(c.column());
        }
        out.add(READY.column());
        out.add(AGE.column());
        return out;
    }

    // ---- the kinds ----

    private static Obj agentBackendSpec() {
        AgentLimits d = AgentLimits.DEFAULTS;
        return obj("The agent behind this backend and how it is called.",
                fields(
                        "url", text("The agent's JSON-RPC endpoint, an absolute http or https URL, called as written.",
                                "http://echo.agents.svc.cluster.local:8080/"),
                        "dialect", oneOf("How the agent speaks: a2a (the A2A protocol) or kagent-v1 (a kagent agent's "
                                + "A2A endpoint, with its context and session conventions).",
                                List.of(AgentBackendSpec.DIALECT_A2A, AgentBackendSpec.DIALECT_KAGENT))
                                .withDefault(AgentBackendSpec.DIALECT_A2A),
                        "agentRef", obj("The kagent Agent resource behind a kagent-v1 backend; each part defaults to this "
                                + "resource's own namespace and name.", fields(
                                        "namespace", text("The kagent Agent's namespace.", "kagent"),
                                        "name", text("The kagent Agent's name.", "k8s-agent")), List.of()),
                        "description", text("What the agent does, for people and for the agent card when the agent "
                                + "has none.", "Answers with what it was sent"),
                        "headers", new TextMap("Static HTTP headers sent on every call to the agent (name to value).",
                                Map.of("X-Team", "sre")),
                        "auth", obj("How Switchboard authenticates to the agent.", fields(
                                "tokenSecretRef", secretRef("A Secret key holding a token sent as Authorization: Bearer "
                                        + "<token> on every call.")), List.of()),
                        "limits", obj("Per-agent limits of the gateway.", fields(
                                "maxConcurrency", number("Calls in flight, sync and streams together; one more is "
                                        + "refused at once with -32603.", d.maxConcurrency()),
                                // no default here: it defaults to min(300, maxTimeoutSeconds), which a fixed default
                                // applied by the API server would break when maxTimeoutSeconds is below 300
                                "defaultTimeoutSeconds", new WholeNumber("Timeout of a call whose caller sends no "
                                        + "params.configuration.timeout; defaults to " + d.defaultTimeoutSeconds()
                                        + " or maxTimeoutSeconds if lower, and may not exceed maxTimeoutSeconds.",
                                        1, null, 120),
                                "maxTimeoutSeconds", number("Cap on any call's timeout.", d.maxTimeoutSeconds()),
                                "maxResponseBytes", number("Largest reply (or single SSE event) relayed; larger ones "
                                        + "become -32603 \"response too large\".", d.maxResponseBytes()),
                                "streamIdleTimeoutSeconds", number("A relayed stream with no agent event for this long "
                                        + "is closed.", d.streamIdleTimeoutSeconds())), List.of()),
                        "skills", new ObjectList("Skills shown on the agent card when the agent's own card has none.",
                                obj("A skill of the agent.", fields(
                                        "id", text("The skill's id.", "echo"),
                                        "name", text("The skill's name; defaults to its id.", "Echo"),
                                        "description", text("What the skill does.", "Repeats the message"),
                                        "tags", new TextList("Tags of the skill.", 0, List.of("demo"))),
                                        List.of("id")))),
                List.of("url"));
    }

    private static Obj bindingSpec() {
        return obj("Which channels reach which agent, as whom.",
                fields(
                        "backendRef", obj("The AgentBackend the channels' messages go to.", fields(
                                "name", text("The AgentBackend's metadata.name.", "echo")), List.of("name")),
                        "chat", obj("The channels.", fields(
                                "platform", oneOf("web (Switchboard's web chat) or slack (a SlackApp's channels).",
                                        List.of("web", "slack")),
                                "channels", new TextList("The channels: web chat channel names, or Slack channel ids "
                                        + "(C0123ABCD, G… for private channels) and im for direct messages. A channel "
                                        + "is bound by one Binding only.", 1, List.of("echo")),
                                "app", text("The SlackApp whose channels these are; only and always on a slack Binding.",
                                        "acme")), List.of("platform", "channels")),
                        "identity", new Obj("Who the bridge is to the agent: exactly one of userId and tokenSecretRef.",
                                fields(
                                        "userId", text("Sent as X-User-Id on every call.", "switchboard"),
                                        "tokenSecretRef", secretRef("A Secret key holding a token sent as Authorization: "
                                                + "Bearer <token>.")),
                                List.of(), List.of("userId", "tokenSecretRef")),
                        "questions", obj("Questions the agent asks back (input-required).", fields(
                                "allowed", new Flag("Whether the agent may ask; when false a question cancels the "
                                        + "turn with a notice.", BindingSpec.DEFAULT_QUESTIONS_ALLOWED, true),
                                "timeout", span("How long a question waits for an answer in the thread.",
                                        BindingSpec.DEFAULT_QUESTION_TIMEOUT, "30m"),
                                "approvers", new TextList("slack: who alone may approve or reject the agent's tool "
                                        + "calls, as Slack user ids (U…, W…) and user-group ids (S…, its members, read "
                                        + "with usergroups:read). Unset: any member of the app's workspace but guests. "
                                        + "Never people of another organisation (Slack Connect); a guest only when "
                                        + "named by their own id.", 1, List.of("U0123ABCD", "S0456EFGH"),
                                        BindingSpec.APPROVER_PATTERN)), List.of())),
                List.of("backendRef", "chat", "identity"));
    }

    private static Obj slackAppSpec() {
        return obj("The Slack app's credentials and how Slack reaches Switchboard.",
                fields(
                        "mode", oneOf("events: Slack posts to /slack/{metadata.name}/events (needs signingSecret); "
                                + "socket: Switchboard connects to Slack over Socket Mode (needs appToken).",
                                List.of("events", "socket")).withDefault("events"),
                        "botToken", secretWrapper("The bot token (xoxb-…)."),
                        "signingSecret", secretWrapper("The signing secret that verifies Slack's requests; required in "
                                + "events mode."),
                        "appToken", secretWrapper("The app-level token (xapp-…); required in socket mode."),
                        "apiUrl", text("Slack's Web API base URL (for a test double).", "https://slack.com/api/")
                                .withDefault(SlackAppSpec.DEFAULT_API_URL)),
                List.of("botToken"));
    }

    private static Obj triggerSpec() {
        return obj("Where the trigger's threads go and who may call it.",
                fields(
                        "bindingRef", obj("The Binding whose platform and first channel receive the threads.", fields(
                                "name", text("The Binding's metadata.name.", "web-sre")), List.of("name")),
                        "format", oneOf("What callers POST: alertmanager (Alertmanager's webhook, version 4) or generic "
                                + "({title, text, fields}).",
                                Arrays.stream(TriggerFormat.values()).map(TriggerFormat::value).toList()),
                        "tokenSecretRef", secretRef("A Secret key holding the token (16+ characters) callers send as "
                                + "Authorization: Bearer <token>."),
                        "rateLimit", obj("Requests accepted, per trigger.", fields(
                                "perMinute", number("Sustained rate of accepted requests per minute (at most 100000).",
                                        TriggerSettings.DEFAULT_PER_MINUTE),
                                // no default: it follows perMinute (a tenth of it, at least 10)
                                "burst", new WholeNumber("Requests accepted at once before the rate applies; defaults "
                                        + "to a tenth of perMinute, at least " + TriggerSettings.defaultBurst(0) + ".",
                                        1, null, 20)), List.of())),
                List.of("bindingRef", "format", "tokenSecretRef"));
    }

    // ---- building blocks ----

    private static Obj secretRef(String description) {
        return obj(description, fields(
                "name", text("The Secret's name, in the resource's namespace.", "agent-token"),
                "key", text("The key in the Secret's data.", "token")), List.of("name", "key"));
    }

    private static Obj secretWrapper(String description) {
        return obj(description, fields("secretRef", secretRef("The Secret key holding it.")), List.of("secretRef"));
    }

    private static Text text(String description, String example) {
        return new Text(description, List.of(), null, example);
    }

    private static Text oneOf(String description, List<String> allowed) {
        return new Text(description, allowed, null, allowed.get(0));
    }

    private static WholeNumber number(String description, long defaultValue) {
        return new WholeNumber(description, 1, defaultValue, defaultValue);
    }

    private static Span span(String description, java.time.Duration defaultValue, String example) {
        return new Span(description, Durations.format(defaultValue), example);
    }

    private static Obj obj(String description, Map<String, FieldSchema> properties, List<String> required) {
        return new Obj(description, properties, required, List.of());
    }

    private static Map<String, FieldSchema> fields(Object... nameThenSchema) {
        Map<String, FieldSchema> out = new LinkedHashMap<>();
        for (int i = 0; i < nameThenSchema.length; i += 2) {
            out.put((String) nameThenSchema[i], (FieldSchema) nameThenSchema[i + 1]);
        }
        return out;
    }
}
