package dev.switchboard.bridge.faults;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Switchboard under test, started in-process from the YAML an operator would write, with the agent
 * contract's durations shortened so that every fault plays out in seconds, and one web channel per
 * misbehaving testkit agent (channel, AgentBackend and Binding {@code web-<name>} share the agent's name).
 *
 * <p>The support of {@code bridge.it} is package-private there, so the faults keep their own, smaller one.
 */
final class FaultBridge implements AutoCloseable {

    /** The seed's durations, shortened: 15 min → 3 s, 2 min → 1 s, 5 min → 1.5 s, 1 h → 3 s, 30 s → 1 s. */
    static final Duration GIVE_UP_AFTER = Duration.ofSeconds(3);
    static final Duration BUSY_NOTICE_AFTER = Duration.ofSeconds(1);
    static final Duration SILENCE_LIMIT = Duration.ofMillis(1500);
    static final Duration NO_SIGN_OF_LIFE = Duration.ofSeconds(3);
    static final Duration RESPONSE_HEADERS = Duration.ofSeconds(1);
    static final Duration SETTLE_DELAY = Duration.ofMillis(300);
    static final Duration BACKOFF_MAX = Duration.ofMillis(300);
    static final int CANCEL_ATTEMPTS = 3;

    static final String CONTRACT = """
            giveUpAfter: %dms
            busyNoticeAfter: %dms
            silenceLimit: %dms
            noSignOfLife: %dms
            responseHeaders: %dms
            settleDelay: %dms
            pollBackoffMax: %dms
            retryBackoffMax: %dms
            retryAfterMax: 2s
            cancelAttempts: %d
            """.formatted(GIVE_UP_AFTER.toMillis(), BUSY_NOTICE_AFTER.toMillis(), SILENCE_LIMIT.toMillis(),
            NO_SIGN_OF_LIFE.toMillis(), RESPONSE_HEADERS.toMillis(), SETTLE_DELAY.toMillis(), BACKOFF_MAX.toMillis(),
            BACKOFF_MAX.toMillis(), CANCEL_ATTEMPTS);

    static final String BOT_USER = "switchboard-bot";
    static final String BINDING_TOKEN = "binding-token-5e1f";

    final Vertx vertx;
    final SwitchboardApp app;
    final FaultChat chat;
    private final Map<String, TestAgent> agents;

    private FaultBridge(Vertx vertx, SwitchboardApp app, Map<String, TestAgent> agents) {
        this.vertx = vertx;
        this.app = app;
        this.agents = agents;
        this.chat = new FaultChat(app.baseUrl());
    }

    static Builder builder(Path store) {
        return new Builder(store);
    }

    TestAgent agent(String name) {
        TestAgent agent = agents.get(name);
        if (agent == null) {
            throw new IllegalArgumentException("no agent " + name);
        }
        return agent;
    }

    Recorder recorder(String name) {
        return agent(name).recorder();
    }

    /** A counter's value on {@code /metrics} for exactly these labels; 0 when it has not been registered. */
    double counter(String name, Map<String, String> labels) {
        String text = chat.getText("/metrics");
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\}\\s+(\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(text);
        while (m.find()) {
            Map<String, String> found = new LinkedHashMap<>();
            Matcher label = Pattern.compile("(\\w+)=\"([^\"]*)\"").matcher(m.group(1));
            while (label.find()) {
                found.put(label.group(1), label.group(2));
            }
            if (found.equals(labels)) {
                return Double.parseDouble(m.group(2));
            }
        }
        return 0;
    }

    @Override
    public void close() {
        if (app != null) {
            app.close().await();
        }
        agents.values().forEach(a -> a.close().await());
        vertx.close().await();
    }

    /** The configuration, built as YAML. */
    static final class Builder {
        private final Path store;
        private final Vertx vertx = Vertx.vertx();
        private final Map<String, TestAgent> agents = new LinkedHashMap<>();
        private final StringBuilder resources = new StringBuilder();
        private String contract = CONTRACT;

        private Builder(Path store) {
            this.store = store;
        }

        /** Replaces the shortened contract durations (YAML lines under {@code contract:}). */
        Builder contract(String yaml) {
            this.contract = yaml;
            return this;
        }

        Builder agent(String name, TestAgentOptions options) {
            return agent(name, options, null);
        }

        /**
         * Starts a testkit agent and binds the web channel {@code name} to it.
         *
         * @param bindingSpec extra lines of the Binding's spec, e.g. {@code questions: {allowed: false}}
         */
        Builder agent(String name, TestAgentOptions options, String bindingSpec) {
            TestAgent agent = TestAgent.start(vertx, options.withName(name), 0).await();
            agents.put(name, agent);
            return backend(name, agent.url(), bindingSpec);
        }

        /** A channel whose backend is at {@code url} (which need not be a testkit agent's). */
        Builder backend(String name, String url, String bindingSpec) {
            resources.append("""
                    ---
                    apiVersion: switchboard.dev/v1
                    kind: AgentBackend
                    metadata: {name: %1$s}
                    spec:
                      url: %2$s
                    ---
                    apiVersion: switchboard.dev/v1
                    kind: Binding
                    metadata: {name: web-%1$s}
                    spec:
                      backendRef: {name: %1$s}
                      chat: {platform: web, channels: [%1$s]}
                      identity: {userId: %3$s}
                    %4$s
                    """.formatted(name, url, BOT_USER, bindingSpec == null ? "" : "  " + bindingSpec.strip()));
            return this;
        }

        Vertx vertx() {
            return vertx;
        }

        String yaml() {
            return """
                    apiVersion: switchboard.dev/v1
                    kind: Server
                    spec:
                      listen: 127.0.0.1:0
                      store: sqlite:%s
                      webChat:
                        defaultUser: {id: ada, name: Ada Lovelace, email: ada@example.com}
                      contract:
                    %s
                    """.formatted(store, contract.strip().lines().map(l -> "    " + l).reduce((a, b) -> a + "\n" + b)
                    .orElse("")) + resources;
        }

        FaultBridge start() {
            try {
                SwitchboardApp app = SwitchboardApp.start(vertx, new ConfigLoader(Map.of()).parse(yaml(), "faults.yaml"))
                        .await();
                return new FaultBridge(vertx, app, agents);
            } catch (RuntimeException e) {
                agents.values().forEach(a -> a.close().await());
                vertx.close().await();
                throw e;
            }
        }
    }
}
