package dev.switchboard.bridge.faults;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fault tests' Switchboard: a {@link SwitchboardFixture} on the YAML an operator would write, with the agent
 * contract's durations shortened so that every fault plays out in seconds, and one web channel per misbehaving
 * testkit agent (channel, AgentBackend and Binding {@code web-<name>} share the agent's name). The fixture starts and
 * closes the agents and the app; this class keeps the contract, the channels and the fault tests' readings.
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
    /** Seconds above a 1 s Retry-After, so that a busy machine cannot make an honoured 1 s look capped. */
    static final Duration RETRY_AFTER_MAX = Duration.ofSeconds(5);
    static final int CANCEL_ATTEMPTS = 3;

    private static final String CONTRACT = """
            giveUpAfter: %dms
            busyNoticeAfter: %dms
            silenceLimit: %dms
            noSignOfLife: %dms
            responseHeaders: %dms
            settleDelay: %dms
            pollBackoffMax: %dms
            retryBackoffMax: %dms
            retryAfterMax: %dms
            cancelAttempts: %d
            """.formatted(GIVE_UP_AFTER.toMillis(), BUSY_NOTICE_AFTER.toMillis(), SILENCE_LIMIT.toMillis(),
            NO_SIGN_OF_LIFE.toMillis(), RESPONSE_HEADERS.toMillis(), SETTLE_DELAY.toMillis(), BACKOFF_MAX.toMillis(),
            BACKOFF_MAX.toMillis(), RETRY_AFTER_MAX.toMillis(), CANCEL_ATTEMPTS);

    final Vertx vertx;
    final SwitchboardApp app;
    final ChatApi chat;
    private final SwitchboardFixture fixture;

    private FaultBridge(Vertx vertx, SwitchboardFixture fixture) {
        this.vertx = vertx;
        this.fixture = fixture;
        this.app = fixture.app();
        this.chat = fixture.chat();
    }

    static Builder builder(Path store) {
        return new Builder(store);
    }

    TestAgent agent(String name) {
        return fixture.agent(name);
    }

    Recorder recorder(String name) {
        return agent(name).recorder();
    }

    /** The channel of {@link Builder#echoPerVersion()}'s agent for {@code version}. */
    static String channel(ProtocolVersion version) {
        return version == ProtocolVersion.V1_0 ? "v10" : "v03";
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
        try {
            fixture.close();
        } finally {
            vertx.close().await();
        }
    }

    /** The configuration, and the agents it names. */
    static final class Builder {
        private final Vertx vertx = Vertx.vertx();
        private final SwitchboardFixture.Builder fixture = SwitchboardFixture.builder().vertx(vertx);
        private final ConfigYaml config;
        /** the web channels, added to {@link #config} once their agents' URLs are known */
        private final List<Consumer<SwitchboardFixture.Agents>> channels = new ArrayList<>();

        private Builder(Path store) {
            this.config = ConfigYaml.server(store, false, CONTRACT);
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
            fixture.agent(name, options.withName(name));
            channels.add(agents -> config.webBackend(name, agents.url(name), bindingSpec));
            return this;
        }

        /** An echo agent per A2A version that serves only that version, on the channel {@link #channel} names. */
        Builder echoPerVersion() {
            for (ProtocolVersion v : ProtocolVersion.values()) {
                agent(channel(v), TestAgentOptions.echo(channel(v)).withVersions(v));
            }
            return this;
        }

        /** A channel whose backend is at {@code url} (which need not be a testkit agent's). */
        Builder backend(String name, String url, String bindingSpec) {
            channels.add(agents -> config.webBackend(name, url, bindingSpec));
            return this;
        }

        Vertx vertx() {
            return vertx;
        }

        FaultBridge start() {
            try {
                return new FaultBridge(vertx, fixture.yaml(agents -> {
                    channels.forEach(c -> c.accept(agents));
                    return config;
                }).start());
            } catch (RuntimeException e) {
                vertx.close().await();
                throw e;
            }
        }
    }
}
