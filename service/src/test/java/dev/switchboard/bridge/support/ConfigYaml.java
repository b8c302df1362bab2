package dev.switchboard.bridge.support;

import java.nio.file.Path;

/**
 * Builds the YAML configuration of a Switchboard under test, the way an operator writes it (so the config loader is
 * part of what is tested). It starts nothing: {@code SwitchboardFixture.builder().yaml(...)} starts the service on it.
 */
public final class ConfigYaml {

    /** The identity every web backend binding in these tests calls with, unless it uses a token. */
    public static final String BOT_USER = "switchboard-bot";
    public static final String BINDING_TOKEN = "binding-token-7f3c";
    /** The backend's own (gateway) token: the bridge must not send it next to the binding's identity. */
    public static final String BACKEND_TOKEN = "backend-token-91aa";
    /** Contract durations shortened just enough that tests which do not wait on them run quickly. */
    public static final String QUICK_CONTRACT = """
            settleDelay: 200ms
            retryBackoffMax: 1s
            pollBackoffMax: 1s
            """;

    private final StringBuilder yaml = new StringBuilder();

    /**
     * The Server resource: listen on an ephemeral port, store in {@code store}, the contract durations
     * {@code contract} (the YAML lines under {@code contract:}), and the web chat's identity rules; and the
     * Secret {@code tokens} that {@link #webAgent} backends and bindings take their tokens from.
     */
    public static ConfigYaml server(Path store, boolean trustForwardedUser, String contract) {
        ConfigYaml c = new ConfigYaml();
        c.yaml.append("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                  store: sqlite:%s
                  webChat:
                    trustForwardedUser: %s
                    defaultUser: {id: ada, name: Ada Lovelace, email: ada@example.com}
                  contract:
                %s
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: tokens}
                stringData: {binding: %s, backend: %s}
                """.formatted(store, trustForwardedUser, indent(contract, "    "), BINDING_TOKEN, BACKEND_TOKEN));
        return c;
    }

    /**
     * A Server resource with the given spec lines (e.g. {@code listen}, {@code apiKeys}, {@code publicUrl},
     * {@code webChat}, {@code bridge}), the store in {@code store}, the quick contract, and the Secret
     * {@code tokens}. The listen address is 127.0.0.1:0 unless the lines say otherwise.
     */
    public static ConfigYaml server(Path store, String spec) {
        return serverOn("sqlite:" + store, spec);
    }

    /** As {@link #server(Path, String)}, on the store setting {@code store} (e.g. a test PostgreSQL's URL). */
    public static ConfigYaml serverOn(String store, String spec) {
        ConfigYaml c = new ConfigYaml();
        String listen = spec.lines().anyMatch(l -> l.startsWith("listen:")) ? "" : "listen: 127.0.0.1:0\n";
        c.yaml.append("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                %s
                  store: %s
                  contract:
                %s
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: tokens}
                stringData: {binding: %s, backend: %s}
                """.formatted(indent(listen + spec, "  "), store, indent(QUICK_CONTRACT, "    "), BINDING_TOKEN,
                BACKEND_TOKEN));
        return c;
    }

    /**
     * An AgentBackend (with a static header and its own gateway token) and a web Binding whose one
     * channel has the backend's name; {@code withToken} picks the binding's identity.
     */
    public ConfigYaml webAgent(String name, String url, boolean withToken) {
        return channel(name, """
                url: %s
                headers: {X-Team: sre}
                auth: {tokenSecretRef: {name: tokens, key: backend}}
                """.formatted(url),
                withToken ? "{tokenSecretRef: {name: tokens, key: binding}}" : "{userId: " + BOT_USER + "}", null);
    }

    /**
     * A plain AgentBackend at {@code url} and a web Binding, calling as {@link #BOT_USER}, whose one
     * channel has the backend's name.
     *
     * @param bindingSpec extra lines of the Binding's spec, e.g. {@code questions: {allowed: false}}; may be null
     */
    public ConfigYaml webBackend(String name, String url, String bindingSpec) {
        return channel(name, "url: " + url, "{userId: " + BOT_USER + "}", bindingSpec);
    }

    /**
     * A kagent-v1 AgentBackend (agentRef default/{@code name}: the endpoint is {@code url}/agents/default/{@code name})
     * and a web Binding whose one channel has the backend's name.
     */
    public ConfigYaml kagentBackend(String name, String url, String bindingSpec) {
        return channel(name, "url: " + url + "\ndialect: kagent-v1\nagentRef: {namespace: default, name: " + name + "}",
                "{userId: " + BOT_USER + "}", bindingSpec);
    }

    private ConfigYaml channel(String name, String backendSpec, String identity, String bindingSpec) {
        yaml.append("""
                ---
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: %1$s}
                spec:
                %2$s
                ---
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: web-%1$s}
                spec:
                  backendRef: {name: %1$s}
                  chat: {platform: web, channels: [%1$s]}
                  identity: %3$s
                %4$s
                """.formatted(name, indent(backendSpec, "  "), identity, indent(bindingSpec, "  ")));
        return this;
    }

    /** The Slack app's secrets in these tests: long enough for the SDK, distinct enough to find in a log. */
    public static final String SLACK_BOT_TOKEN = "xoxb-test-bot-token-5d1e";
    public static final String SLACK_APP_TOKEN = "xapp-test-app-token-c27a";
    public static final String SLACK_SIGNING_SECRET = "signing-secret-93be61";
    /** The channel the Slack binding serves (plus direct messages). */
    public static final String SLACK_CHANNEL = "C0SRE0001";

    /**
     * An AgentBackend at {@code url}, the SlackApp {@code main} in {@code mode} (events or socket) on the Web API at
     * {@code apiUrl}, and the Binding {@code slack-<name>} of channel {@link #SLACK_CHANNEL} and direct messages.
     *
     * @param bindingSpec extra lines of the Binding's spec; may be null
     */
    public ConfigYaml slackAgent(String name, String url, String mode, String apiUrl, String bindingSpec) {
        return slack(name, "{url: \"" + url + "\"}", mode, apiUrl, bindingSpec);
    }

    /**
     * As {@link #slackAgent}, the backend a kagent-v1 agent at {@code url}/agents/default/{@code name} (agentRef
     * default/{@code name}), as {@link #kagentBackend} but behind the Slack binding {@code slack-<name>}.
     */
    public ConfigYaml slackKagent(String name, String url, String mode, String apiUrl, String bindingSpec) {
        return slack(name, "{url: \"" + url + "\", dialect: kagent-v1, agentRef: {namespace: default, name: " + name + "}}",
                mode, apiUrl, bindingSpec);
    }

    private ConfigYaml slack(String name, String backendSpec, String mode, String apiUrl, String bindingSpec) {
        yaml.append("""
                ---
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: %1$s}
                spec: %2$s
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: slack}
                stringData: {botToken: %5$s, signingSecret: %6$s, appToken: %7$s}
                ---
                apiVersion: switchboard.dev/v1
                kind: SlackApp
                metadata: {name: main}
                spec:
                  mode: %3$s
                  botToken: {secretRef: {name: slack, key: botToken}}
                  signingSecret: {secretRef: {name: slack, key: signingSecret}}
                  appToken: {secretRef: {name: slack, key: appToken}}
                  apiUrl: "%4$s"
                ---
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: slack-%1$s}
                spec:
                  backendRef: {name: %1$s}
                  chat: {platform: slack, app: main, channels: [%8$s, im]}
                  identity: {tokenSecretRef: {name: tokens, key: binding}}
                %9$s
                """.formatted(name, backendSpec, mode, apiUrl, SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN,
                SLACK_CHANNEL, indent(bindingSpec, "  ")));
        return this;
    }

    /** The bearer token of every {@link #trigger} in these tests. */
    public static final String TRIGGER_TOKEN = "trigger-token-0a7e5c19d2";

    /**
     * A Trigger {@code name} on Binding {@code binding} in {@code format} (alertmanager or generic), whose callers send
     * {@link #TRIGGER_TOKEN}, and its Secret {@code trigger-<name>}.
     *
     * @param extraSpec extra lines of the Trigger's spec, e.g. {@code rateLimit: {perMinute: 2, burst: 2}}; may be null
     */
    public ConfigYaml trigger(String name, String binding, String format, String extraSpec) {
        yaml.append("""
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: trigger-%1$s}
                stringData: {token: %4$s}
                ---
                apiVersion: switchboard.dev/v1
                kind: Trigger
                metadata: {name: %1$s}
                spec:
                  bindingRef: {name: %2$s}
                  format: %3$s
                  tokenSecretRef: {name: trigger-%1$s, key: token}
                %5$s
                """.formatted(name, binding, format, TRIGGER_TOKEN, indent(extraSpec, "  ")));
        return this;
    }

    public String yaml() {
        return yaml.toString();
    }

    private static String indent(String text, String prefix) {
        if (text == null || text.isBlank()) {
            return "";
        }
        return text.strip().lines().map(l -> prefix + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
