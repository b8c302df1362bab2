package dev.switchboard.config;

import static dev.switchboard.config.SchemaBlocks.fields;
import static dev.switchboard.config.SchemaBlocks.number;
import static dev.switchboard.config.SchemaBlocks.obj;
import static dev.switchboard.config.SchemaBlocks.oneOf;
import static dev.switchboard.config.SchemaBlocks.secretRef;
import static dev.switchboard.config.SchemaBlocks.secretWrapper;
import static dev.switchboard.config.SchemaBlocks.span;
import static dev.switchboard.config.SchemaBlocks.text;

import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.config.FieldSchema.Flag;
import dev.switchboard.config.FieldSchema.Fraction;
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
 * The {@code spec} of AgentBackend, Binding, SlackApp, Trigger and Server, field by field: the one place a setting's
 * type, default, bounds, allowed values and description are written. Defaults are taken from the settings types' own
 * constants. From this: the loader's checks ({@link ShapeCheck}) and defaults ({@link SpecTree}), the CRDs in
 * {@code deploy/crds/} ({@link CrdGenerator}; not for Server, which is read from the file, a ConfigMap in Kubernetes)
 * and the reference tables of {@code docs/configuration.md} ({@link ConfigurationDoc}).
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
            "An A2A agent (or a kagent agent) that Switchboard's gateway serves at /a2a/{metadata.name} and Bindings call; "
                    + "its metadata.labels are what AccessPolicy selectors match.",
            agentBackendSpec(), columns(
                    new Column("URL", "string", ".spec.url", "The agent's JSON-RPC endpoint"),
                    new Column("Dialect", "string", ".spec.dialect", String.join(" or ", Dialect.configNames()))));

    public static final ResourceKind BINDING = new ResourceKind("Binding", "bindings", "binding", List.of("sbb"),
            "Chat channels (web chat or Slack) connected to an AgentBackend, with the identity the bridge calls it as.",
            bindingSpec(), columns(
                    new Column("Backend", "string", ".spec.backendRef.name", "The AgentBackend called"),
                    new Column("Platform", "string", ".spec.chat.platform", String.join(" or ", Platform.configNames()))));

    public static final ResourceKind SLACK_APP = new ResourceKind("SlackApp", "slackapps", "slackapp", List.of(),
            "A Slack app (one workspace) whose channels Bindings connect to agents.",
            slackAppSpec(), columns(new Column("Mode", "string", ".spec.mode", "events (HTTP) or socket (Socket Mode)")));

    public static final ResourceKind TRIGGER = new ResourceKind("Trigger", "triggers", "trigger", List.of(),
            "An authenticated webhook at /triggers/{metadata.name} (Alertmanager or generic) that opens a thread in a "
                    + "Binding's first channel and hands it to the Binding's agent.",
            triggerSpec(), columns(
                    new Column("Binding", "string", ".spec.bindingRef.name", "The Binding whose channel receives the threads"),
                    new Column("Format", "string", ".spec.format", "alertmanager or generic")));

    public static final ResourceKind ACCESS_POLICY = new ResourceKind("AccessPolicy", "accesspolicies", "accesspolicy",
            List.of("sbap"),
            "Grants gateway callers (API keys, JWT claims) the right to call some agents with some methods, and with "
                    + "admin: true the operator's console. With no AccessPolicy at all every caller may call every "
                    + "agent; with any, a call no policy grants is refused (403) before any agent is contacted. See "
                    + "docs/access-policy.md.",
            accessPolicySpec(), columns(
                    new Column("Methods", "string", ".spec.methods", "The methods granted")));

    /** The kinds served by the API server: each has a CRD in deploy/crds and is watched in watch mode. */
    public static final List<ResourceKind> ALL = List.of(AGENT_BACKEND, BINDING, SLACK_APP, TRIGGER, ACCESS_POLICY);

    /**
     * The Server resource: one per file, never in the cluster (watch mode reads it from the file, mounted from a
     * ConfigMap), so it has no CRD and is not in {@link #ALL}; its names are only there for the shape it shares.
     */
    public static final ResourceKind SERVER = new ResourceKind("Server", "servers", "server", List.of(),
            "The process's own settings: where it listens, its store, its credentials, its bounds.", serverSpec(),
            List.of());

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
                                Dialect.configNames(), "a dialect")
                                .withDefault(Dialect.A2A.configName()),
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
                                        + "<token> on every call. In watch mode the Secret must carry the label "
                                        + "switchboard.dev/usable-by-backends: \"true\" (else Ready=False, "
                                        + "SecretNotUsable): Switchboard's own credentials, which do not, are never sent."),
                                "callerJwt", new Flag("Send the caller's verified identity as X-Switchboard-Caller-JWT: "
                                        + "a JWT of a few minutes signed by Switchboard (sub: the caller's id, aud: "
                                        + "this agent, caller_kind), whose keys are at /.well-known/jwks.json.",
                                        false, true),
                                "passThrough", new Flag("Pass a JWT caller's own bearer token on as Authorization; "
                                        + "only to an https or loopback url, not with tokenSecretRef or callerJwt.",
                                        false, true)), List.of()),
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
                                        Platform.configNames(), "a chat platform"),
                                "channels", new TextList("The channels: web chat channel names, or Slack channel ids "
                                        + "(C0123ABCD, G… for private channels) and im for direct messages. A channel "
                                        + "is bound by one Binding only.", 1, List.of("echo")),
                                "app", text("The SlackApp whose channels these are; only and always on a slack Binding.",
                                        "acme")), List.of("platform", "channels")),
                        "allowedUsers", new TextList("slack: who alone may start turns and answer the agent's "
                                + "questions (and approve tool calls when questions.approvers is not set), as Slack "
                                + "user ids (U…, W…) and user-group ids (S…). Unset: anyone in the channels. Never "
                                + "people of another organisation (Slack Connect); a guest only when named by their "
                                + "own id.", 1, List.of("U0123ABCD", "S0456EFGH"), BindingSpec.APPROVER_PATTERN),
                        "feedback", obj("slack: the 👍/👎 buttons under every final answer.", fields(
                                "sendToAgent", new Flag("Whether a person's 👍/👎 is also sent to the agent, as a "
                                        + "message of its own (metadata switchboard.dev/feedback) whose reply is not "
                                        + "shown.", false, true)), List.of()),
                        "identity", new Obj("Who the bridge is to the agent: exactly one of userId and tokenSecretRef.",
                                fields(
                                        "userId", text("Sent as X-User-Id on every call.", "switchboard"),
                                        "tokenSecretRef", secretRef("A Secret key holding a token sent as Authorization: "
                                                + "Bearer <token>. In watch mode the Secret must carry the label "
                                                + "switchboard.dev/usable-by-backends: \"true\" (else Ready=False, "
                                                + "SecretNotUsable).")),
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
                        "mode", oneOf("events: Slack posts to /slack/events and /slack/interactions, signed with the app's signingSecret; "
                                + "socket: Switchboard connects to Slack over Socket Mode (needs appToken).",
                                List.of("events", "socket"), "a mode").withDefault("events"),
                        "botToken", secretWrapper("The bot token (xoxb-…)."),
                        "signingSecret", secretWrapper("The signing secret that verifies Slack's requests; required in "
                                + "events mode."),
                        "appToken", secretWrapper("The app-level token (xapp-…); required in socket mode."),
                        "apiUrl", text("Slack's Web API base URL (for a test double).", "https://slack.com/api/")
                                .withDefault(SlackAppSpec.DEFAULT_API_URL),
                        "streaming", oneOf("How answers stream: native (chat.startStream/appendStream/stopStream, one "
                                + "message per answer), edit (a message edited with chat.update, Tier 3: about 50 edits "
                                + "a minute for the whole workspace) or auto (native, and edit from the first time "
                                + "the workspace refuses native streaming).",
                                List.of("native", "edit", "auto"), "a streaming mode").withDefault("auto")),
                List.of("botToken"));
    }

    private static Obj triggerSpec() {
        return obj("Where the trigger's threads go and who may call it.",
                fields(
                        "bindingRef", obj("The Binding whose platform and first channel receive the threads.", fields(
                                "name", text("The Binding's metadata.name.", "web-sre")), List.of("name")),
                        "format", oneOf("What callers POST: alertmanager (Alertmanager's webhook, version 4) or generic "
                                + "({title, text, fields}).",
                                Arrays.stream(TriggerFormat.values()).map(TriggerFormat::value).toList(),
                                "a trigger format"),
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

    private static Obj accessPolicySpec() {
        return obj("Who may call which agents with which methods, and how fast.",
                fields(
                        "subjects", new ObjectList("The callers granted: each an API key by name or a JWT claim's "
                                + "values; a caller matching any subject is granted.",
                                new Obj("One kind of caller: exactly one of apiKey and claim.", fields(
                                        "apiKey", text("The name of an API key of Server.spec.apiKeys.", "ci-bot"),
                                        "claim", text("A JWT claim (groups, scope, roles, …); a caller whose claim "
                                                + "holds any of values matches. A claim's value is also split on "
                                                + "spaces (OAuth's scope).", "groups"),
                                        "values", new TextList("With claim: the values, any of which grants.", 1,
                                                List.of("sre", "agents:call"))),
                                        List.of(), List.of("apiKey", "claim"))),
                        "agents", obj("The agents granted: those named, those whose AgentBackend carries all of "
                                + "selector.matchLabels in metadata.labels, and those with a skill tagged with any of "
                                + "skillTags. Leave it out to grant every agent.", fields(
                                        "names", new TextList("Agent ids (an AgentBackend's metadata.name or a "
                                                + "registered agent_id).", 0, List.of("echo")),
                                        "selector", obj("Agents by the labels of their AgentBackend (registered "
                                                + "agents carry none).", fields(
                                                        "matchLabels", new TextMap("Labels an agent's AgentBackend must "
                                                                + "all carry.", Map.of("team", "sre"))), List.of()),
                                        "skillTags", new TextList("Agents with a skill carrying any of these tags (the "
                                                + "skills of the AgentBackend or the registration).", 0,
                                                List.of("triage"))), List.of()),
                        "methods", new TextList("The JSON-RPC methods granted: A2A names of either version (a name "
                                + "covers its equivalent in the other: message/send and SendMessage), custom ones, or "
                                + "* for all. Required unless admin is true.", 1, List.of("message/send", "tasks/get")),
                        "admin", new Flag("The subjects may also open the operator's console (/console/api/) beyond "
                                + "loopback, as the admin token does. With admin and no methods the policy grants the "
                                + "console only and is not a gateway policy (it leaves calls as they were).", false,
                                true),
                        "rateLimit", obj("Calls per caller to each agent this policy grants, in place of "
                                + "Server.spec.gateway.callerLimits.perAgent.", fields(
                                        "rate", new Fraction("Tokens added per second.", 0.001, 1_000_000, null, 5),
                                        "burst", new WholeNumber("Calls accepted at once; defaults to rate, at least "
                                                + "1.", 1, null, 10)), List.of("rate"))),
                List.of("subjects"));
    }

    private static Obj serverSpec() {
        ServerSpec d = ServerSpec.defaults();
        dev.switchboard.gateway.GatewaySettings g = d.gateway();
        dev.switchboard.gateway.StreamBufferSettings sb = dev.switchboard.gateway.StreamBufferSettings.DEFAULTS;
        dev.switchboard.push.PushSettings ps = dev.switchboard.push.PushSettings.DEFAULTS;
        HttpLimits h = d.http();
        dev.switchboard.registry.RegistrySettings r = d.registry();
        dev.switchboard.mcp.McpSettings m = d.mcp();
        dev.switchboard.chat.web.WebChatSettings w = BridgeSettings.DEFAULTS.webChat();
        dev.switchboard.bridge.engine.ContractDurations c = BridgeSettings.DEFAULTS.contract();
        dev.switchboard.bridge.BridgeLimits b = BridgeSettings.DEFAULTS.limits();
        return obj("Where Switchboard listens, what it stores where, who may call it, and its bounds; every field has a "
                + "default.",
                fields(
                        "listen", text("host:port to listen on; any address beyond loopback needs apiKeys and "
                                + "adminToken (or insecure).", "0.0.0.0:8080").withDefault(d.host() + ":" + d.port()),
                        "insecure", new Flag("Listen beyond loopback without credentials, warned at every start.",
                                d.insecure(), false),
                        "publicUrl", text("scheme://host[:port] clients reach this server at: card URLs, the web "
                                + "chat's Host and Origin checks; defaults to the listen address.",
                                "https://switchboard.example.com"),
                        "hostNames", new TextList("Host names this server answers to besides loopback, its own "
                                + "addresses and publicUrl's host: names, *.domain patterns, IP addresses, or * for "
                                + "any (no Host check); a foreign Host gets 421.", 0,
                                List.of("switchboard.agents.svc", "*.example.com")),
                        "store", text("sqlite:PATH or postgresql://host:5432/db?user=NAME (never a password).",
                                "sqlite:./data/switchboard.db").withDefault(d.store()),
                        "storePasswordSecretRef", secretRef("A Secret key holding the PostgreSQL password; only "
                                + "with a postgresql:// store."),
                        "adminToken", text("Registry writes need it as a bearer token, and so do /metrics and the "
                                + "console's API from beyond this machine (16+ characters).", "${SWITCHBOARD_ADMIN_TOKEN}"),
                        "apiKeys", new ObjectList("Gateway callers, registry readers and the web chat need one as a "
                                + "bearer token.", obj("An API key.", fields(
                                        "name", text("The caller's name, in logs and metrics.", "ci-bot"),
                                        "key", text("The key (16+ characters).", "${CI_BOT_KEY}")),
                                List.of("name", "key"))),
                        "auth", obj("JWT callers beside API keys, and the caller tokens Switchboard signs for "
                                + "agents (docs/identity.md).", fields(
                                "jwt", new ObjectList("Issuers whose signed JWTs callers may send as "
                                        + "Authorization: Bearer <token> (RS256/384/512, PS*, ES256/384/512, EdDSA; "
                                        + "exp required; 60 s of clock skew).", obj("A trusted issuer.", fields(
                                                "issuer", text("The tokens' iss, exactly.", "https://login.example.com/"),
                                                "audiences", new TextList("A token's aud must name one of these.", 1,
                                                        List.of("switchboard")),
                                                "jwksUri", text("Where the issuer's JWKS is fetched (https, or http "
                                                        + "on loopback); exactly one of jwksUri and jwks.",
                                                        "https://login.example.com/.well-known/jwks.json"),
                                                "jwks", text("The issuer's JWKS document inline (JSON).",
                                                        "{\"keys\":[...]}"),
                                                "claimsToCaller", text("The claim whose value is the caller's id.",
                                                        "sub").withDefault("sub")),
                                        List.of("issuer", "audiences"))),
                                "callerJwt", obj("How Switchboard signs X-Switchboard-Caller-JWT for AgentBackends "
                                        + "with auth.callerJwt.", fields(
                                                "issuer", text("The tokens' iss; defaults to publicUrl (or the listen "
                                                        + "address).", "https://switchboard.example.com"),
                                                "signingKeySecretRef", secretRef("A Secret key holding Switchboard's "
                                                        + "private signing JWK (EC P-256 or RSA); without it a key is "
                                                        + "generated at start, which replicas cannot share.")),
                                        List.of())), List.of()),
                        "callerIdHeader", text("The header that carries the caller's identity to agents.",
                                "X-KubeMQ-Caller-ID").withDefault(d.callerIdHeader()),
                        "compat", oneOf("kubemq: KubeMQ's A2A connector's names and shapes; leave out for "
                                + "Switchboard's own.", List.of("kubemq"), null),
                        "registrationTtl", span("Dynamic registrations expire after this without a heartbeat.",
                                d.registrationTtl(), "90s"),
                        "tracing", obj("OpenTelemetry spans; off unless otlpEndpoint is set.", fields(
                                "otlpEndpoint", text("An OTLP/HTTP collector; spans go to <endpoint>/v1/traces.",
                                        "http://otel-collector:4318"),
                                "serviceName", text("service.name of the spans.", "switchboard")
                                        .withDefault(dev.switchboard.tracing.TracingSettings.DEFAULT_SERVICE_NAME),
                                "samplingRatio", new Fraction("Share of new traces recorded, 0 to 1.", 0, 1,
                                        dev.switchboard.tracing.TracingSettings.OFF.samplingRatio(), 0.5)), List.of()),
                        "gateway", obj("Bounds of the gateway.", fields(
                                "maxRequestBytes", number("Largest request body.", g.maxRequestBytes()),
                                "keepaliveInterval", span("SSE keep-alive comments on relayed streams.",
                                        g.keepaliveInterval(), "15s"),
                                "connectTimeout", span("Connecting to an agent.", g.connectTimeout(), "10s"),
                                // no default here: it follows the heap (GatewaySettings), which would make the
                                // generated reference differ from machine to machine
                                "maxRequestBytesInFlight", new WholeNumber("Request bodies of all callers buffered at "
                                        + "once; over it: 503; at least maxRequestBytes. Defaults to 256 MiB, or a "
                                        + "quarter of the JVM's maximum heap when that is less, and never below "
                                        + "maxRequestBytes.", 1, null, 268435456L),
                                "callerLimits", obj("Limits per gateway caller (API key name or JWT subject); off "
                                        + "unless set. Held per replica: N replicas let a caller N times as much. "
                                        + "Over a limit: 429 with Retry-After.", fields(
                                        "rate", new Fraction("Calls per second per caller, all agents together.",
                                                0.001, 1_000_000, null, 50),
                                        "burst", new WholeNumber("Calls per caller accepted at once; defaults to "
                                                + "rate, at least 1.", 1, null, 100),
                                        "perAgent", obj("Calls per second per caller to any one agent.", fields(
                                                "rate", new Fraction("Tokens added per second.", 0.001, 1_000_000,
                                                        null, 5),
                                                "burst", new WholeNumber("Calls accepted at once; defaults to rate, "
                                                        + "at least 1.", 1, null, 10)), List.of("rate")),
                                        "maxConcurrency", new WholeNumber("Calls in flight per caller, all agents "
                                                + "together (beside each agent's own limits.maxConcurrency).", 1, null,
                                                20)), List.of()),
                                "streamBuffer", obj("What is kept of each task's relayed stream for a caller that "
                                        + "reconnects with Last-Event-ID (G13). Held per replica: a resume must reach "
                                        + "the replica that relayed the stream (see docs/gateway.md).", fields(
                                        "events", new WholeNumber("Events kept per task; 0 turns buffering and the "
                                                + "id: lines off.", 0, (long) sb.events(), 1000),
                                        "bytes", number("Bytes kept per task.", sb.bytes()),
                                        "age", span("Events older than this are forgotten.", sb.age(), "10m"),
                                        "tasks", number("Tasks buffered at once; the least recently written ended "
                                                + "stream is forgotten first.", sb.tasks()),
                                        "holdAfterDrop", new Span("After its caller went away, a task's stream to the "
                                                + "agent is still read into the buffer this long (its slot of the "
                                                + "agent's maxConcurrency stays taken); left out, it is closed at "
                                                + "once (G8).", null, "60s")), List.of()),
                                "push", obj("Delivery of push notifications to callers' URLs (G14, docs/push.md).",
                                        fields(
                                        "maxAttempts", number("Attempts before a notification is dropped.",
                                                ps.maxAttempts()),
                                        "firstRetry", span("The wait after the first failed attempt; each later one "
                                                + "doubles it.", ps.firstRetry(), "1s"),
                                        "maxRetryWait", span("The longest wait between attempts.", ps.maxRetryWait(),
                                                "5m"),
                                        "timeout", span("One attempt, connect to answer.", ps.timeout(), "10s")),
                                        List.of())),
                                List.of()),
                        "http", obj("Bounds of every connection.", fields(
                                "headerReadTimeout", span("A new connection must send its request headers within this.",
                                        h.headerReadTimeout(), "10s"),
                                "bodyReadTimeout", span("A body not fully received this long after its headers: 408.",
                                        h.bodyReadTimeout(), "30s"),
                                "idleTimeout", span("A connection with no request in progress is closed.",
                                        h.idleTimeout(), "60s"),
                                "maxConnections", number("Connections open at once.", h.maxConnections()),
                                "shutdownGracePeriod", span("At SIGTERM, how long calls in flight get to finish.",
                                        h.shutdownGracePeriod(), "20s")), List.of()),
                        "registry", obj("What API-registered agents may be.", fields(
                                "maxRegistrations", number("Dynamic registrations held at once; more: 429.",
                                        r.maxRegistrations()),
                                "allowedHosts", new TextList("CIDR blocks and host patterns registered agents may "
                                        + "point at; empty: any but link-local and metadata addresses.", 0,
                                        List.of("10.20.0.0/16", "*.agents.svc.cluster.local")),
                                "probeInterval", span("While the console (/console) is in use, how often every agent's "
                                        + "card is fetched to show it reachable or not.", r.probeInterval(), "10s")), List.of()),
                        "mcp", obj("The MCP door at /mcp: every registered agent as MCP tools, with the "
                                + "gateway's credentials and limits.", fields(
                                "enabled", new Flag("Serve /mcp; it asks the same API keys as the gateway and reaches "
                                        + "only what the gateway does.", m.enabled(), false),
                                "toolsPerSkill", new Flag("Also one tool per agent skill, named <agent>.<skill>.",
                                        m.toolsPerSkill(), true),
                                "maxSessions", number("MCP sessions held at once; a new one over it: 503.",
                                        m.maxSessions()),
                                "sessionIdleTimeout", span("A session with no request and no open stream this long "
                                        + "is ended.", m.sessionIdleTimeout(), "30m")), List.of()),
                        "ops", obj("The operations endpoints.", fields(
                                "listen", text("host:port where /metrics is served instead of the main port (with "
                                        + "/healthz and /readyz, which stay on the main port too); no credentials "
                                        + "are asked there.", "127.0.0.1:9090")), List.of()),
                        "webChat", obj("The web chat's identity rules.", fields(
                                "trustForwardedUser", new Flag("Take the user from a trusted proxy's forwarded "
                                        + "headers.", w.trustForwardedUser(), true),
                                "trustedProxies", new TextList("CIDR blocks of the proxies whose forwarded user is "
                                        + "trusted.", 0, List.of("10.0.0.0/8")),
                                "defaultUser", obj("Who a web chat user is when nothing else says.", fields(
                                        "id", text("The user's id.", "ada").withDefault(w.defaultUser().id()),
                                        "name", text("The user's name.", "Ada Lovelace")
                                                .withDefault(w.defaultUser().name()),
                                        "email", text("The user's email.", "ada@example.com")), List.of())),
                                List.of()),
                        "contract", obj("The chat bridge's durations.", fields(
                                "giveUpAfter", span("A turn with no answer is given up after this.", c.giveUpAfter(),
                                        "15m"),
                                "busyNoticeAfter", span("A still-working notice is posted after this.",
                                        c.busyNoticeAfter(), "2m"),
                                "silenceLimit", span("A stream silent this long is read with GetTask.",
                                        c.silenceLimit(), "5m"),
                                "noSignOfLife", span("A task with no sign of life this long is given up.",
                                        c.noSignOfLife(), "1h"),
                                "responseHeaders", span("An agent's response headers must arrive within this.",
                                        c.responseHeaders(), "30s"),
                                "settleDelay", span("An unsettled stream end is read with GetTask after this.",
                                        c.settleDelay(), "1s"),
                                "pollBackoffMax", span("GetTask polling backs off up to this.", c.pollBackoffMax(),
                                        "1m"),
                                "retryBackoffMax", span("Resends back off up to this.", c.retryBackoffMax(), "30s"),
                                "retryAfterMax", span("An agent's Retry-After is honoured up to this.",
                                        c.retryAfterMax(), "1d"),
                                "cancelAttempts", number("A cancel is tried this many times.", c.cancelAttempts())),
                                List.of()),
                        "bridge", obj("The chat bridge's bounds.", fields(
                                "maxQueuedTurns", number("Turns queued per thread; more are refused.",
                                        b.maxQueuedTurns()),
                                "maxAnswerChars", number("Longer answers are cut.", b.maxAnswerChars()),
                                "sessionIdleTimeout", span("A chat session idle this long is forgotten.",
                                        b.sessionIdleTimeout(), "10m"),
                                "leaseDuration", span("A replica's hold on a thread lasts this long without renewal.",
                                        b.leaseDuration(), "15s")), List.of())),
                List.of());
    }
}
