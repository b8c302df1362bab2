package dev.switchboard.testing;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.Scheduler;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.KagentAgent;
import dev.switchboard.cli.WatchMode;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.ops.Readiness;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One Switchboard under test, in-process: a Vert.x instance (its own unless the builder is given one), testkit agents
 * on ephemeral ports, the app started from a configuration built once the agents' URLs are known, and clients pointed
 * at it. Closing it closes the clients, the app, then the agents, then its Vert.x. Nothing of Switchboard is mocked.
 * It is the one way the service's tests start a Switchboard in-process; the domain helpers (the gateway tests'
 * {@code Harness}, {@code SlackRig}, {@code FaultBridge}) start theirs through it.
 *
 * <pre>{@code
 * try (SwitchboardFixture sb = SwitchboardFixture.builder()
 *         .agent("sre", TestAgentOptions.echo("sre"))
 *         .yaml(agents -> ConfigYaml.server(dir.resolve("s.db"), "").webBackend("sre", agents.url("sre"), null))
 *         .start()) {
 *     sb.chat().newThread("sre", "hello");
 * }
 * }</pre>
 *
 * Before the app it starts testkit agents ({@link Builder#agent}, {@link Builder#kagentAgent}) and the testkit's fake
 * Slack ({@link Builder#slack}). The configuration is YAML as an operator writes it ({@link Builder#yaml}: a
 * {@link ConfigYaml} or a string, so the config loader is part of what is tested) or records ({@link Builder#config}:
 * for a setting the YAML would refuse or not reach). The app starts plainly; on a bridge clock
 * ({@link Builder#bridgeTime}); with a readiness of the test's ({@link Builder#readiness}); in watch mode on a
 * Kubernetes API ({@link Builder#kubernetes}); or not at all ({@link Builder#agentsOnly}: the agents alone, for the
 * tests of {@code switchboard check}). A start that fails throws the app's reason, everything started closed. With a
 * Vert.x of the test's and no agents, closing the fixture is closing its app, so such a test may keep {@link #app()}
 * alone.
 */
public final class SwitchboardFixture implements AutoCloseable {

    /** What the builder started before the app, for its configuration: the agents by name, and the fake Slack. */
    public interface Agents {
        TestAgent agent(String name);

        /** The agent's URL; for a {@link Builder#kagentAgent kagent agent}, kagent's (the agent is below it). */
        String url(String name);

        /** The fake Slack ({@link Builder#slack}), whose {@code apiUrl()} a SlackApp names. */
        FakeSlack slack();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** How the app is started from its configuration. */
    @FunctionalInterface
    private interface Launcher {
        Running launch(Vertx vertx, SwitchboardConfig config);
    }

    /** A started app, and the watch that feeds it in watch mode (else null). */
    private record Running(SwitchboardApp app, WatchMode.Running watch) {
        Future<Void> close() {
            return watch != null ? watch.close() : app.close();
        }
    }

    public static final class Builder {
        private Vertx vertx;
        private final Map<String, TestAgentOptions> agents = new LinkedHashMap<>();
        private final Map<String, TestAgentOptions> kagentAgents = new LinkedHashMap<>();
        private FakeSlackOptions slack;
        private Function<Agents, SwitchboardConfig> config;
        private boolean agentsOnly;
        private Launcher launcher = (v, c) -> new Running(SwitchboardApp.start(v, c).await(), null);

        private Builder() {}

        /** Runs everything on {@code vertx}, which the fixture then leaves open (default: a Vert.x of its own). */
        public Builder vertx(Vertx vertx) {
            this.vertx = vertx;
            return this;
        }

        /** A testkit agent started before the app, on an ephemeral port. */
        public Builder agent(String name, TestAgentOptions options) {
            agents.put(name, options);
            return this;
        }

        /**
         * A testkit agent served where kagent serves it, {@code <url>/agents/default/<name>} ({@link KagentAgent});
         * {@link Agents#url} gives kagent's URL, the one a kagent-v1 backend names.
         */
        public Builder kagentAgent(String name, TestAgentOptions options) {
            kagentAgents.put(name, options);
            return this;
        }

        /** The testkit's fake Slack (Web API, events, socket mode), started before the app with {@code options}. */
        public Builder slack(FakeSlackOptions options) {
            this.slack = options;
            return this;
        }

        /** The configuration as an operator writes it (so the config loader is part of what is tested). */
        public Builder yaml(Function<Agents, ConfigYaml> config) {
            return yamlText(agents -> config.apply(agents).yaml());
        }

        public Builder yaml(ConfigYaml config) {
            return yamlText(agents -> config.yaml());
        }

        /** The configuration file's text, e.g. a Server resource for {@link #kubernetes watch mode}. */
        public Builder yaml(String text) {
            return yamlText(agents -> text);
        }

        public Builder yamlText(Function<Agents, String> text) {
            this.config = agents -> new ConfigLoader(Map.of()).parse(text.apply(agents), "test.yaml");
            return this;
        }

        /** The configuration as records, for tests about a setting the YAML would refuse or not reach. */
        public Builder config(Function<Agents, SwitchboardConfig> config) {
            this.config = config;
            return this;
        }

        public Builder config(SwitchboardConfig config) {
            return config(agents -> config);
        }

        /** The chat bridge on {@code time} (a {@code VirtualScheduler}, say) instead of the Vert.x timers. */
        public Builder bridgeTime(Scheduler time) {
            launcher = (v, c) -> new Running(SwitchboardApp.start(v, c, new Readiness(), time).await(), null);
            return this;
        }

        /** The app reports its readiness to {@code readiness}, where the test may add conditions of its own. */
        public Builder readiness(Readiness readiness) {
            launcher = (v, c) -> new Running(SwitchboardApp.start(v, c, readiness).await(), null);
            return this;
        }

        /**
         * Watch mode, as {@code serve --kubernetes}: the configuration is the file (the Server resource), everything
         * else comes from the resources of {@code namespace} that {@code client} lists. The app starts on the first
         * list and does not follow the cluster until {@link SwitchboardFixture#watch()}{@code .follow()} (so /readyz
         * still waits); closing the fixture closes the watch and {@code client}.
         */
        public Builder kubernetes(KubernetesClient client, String namespace) {
            launcher = (v, c) -> {
                WatchMode.Running watch = WatchMode.start(v, c, client, namespace, Duration.ofSeconds(60));
                return new Running(watch.app(), watch);
            };
            return this;
        }

        /** No Switchboard: the agents alone (for tests of what checks an agent, {@code switchboard check}). */
        public Builder agentsOnly() {
            this.agentsOnly = true;
            return this;
        }

        public SwitchboardFixture start() {
            if (config == null && !agentsOnly) {
                throw new IllegalStateException("no configuration: call yaml(...) or config(...), or agentsOnly()");
            }
            boolean owned = vertx == null;
            SwitchboardFixture f = new SwitchboardFixture(owned ? Vertx.vertx() : vertx, owned);
            try {
                agents.forEach((name, options) -> f.agents.put(name, TestAgent.start(f.vertx, options, 0).await()));
                kagentAgents.forEach((name, options) ->
                        f.kagentAgents.put(name, KagentAgent.start(f.vertx, name, options)));
                if (slack != null) {
                    f.slack = FakeSlack.start(f.vertx, slack).await();
                }
                if (!agentsOnly) {
                    SwitchboardConfig c = config.apply(new Agents() {
                        @Override
                        public TestAgent agent(String name) {
                            return f.agent(name);
                        }

                        @Override
                        public String url(String name) {
                            return f.url(name);
                        }

                        @Override
                        public FakeSlack slack() {
                            return f.slack();
                        }
                    });
                    f.start = v -> launcher.launch(v, c);
                    f.running = f.start.apply(f.vertx);
                }
                return f;
            } catch (Throwable e) {
                f.close();
                throw e;
            }
        }
    }

    private final Vertx vertx;
    private final boolean ownsVertx;
    private final Map<String, TestAgent> agents = new LinkedHashMap<>();
    private final Map<String, KagentAgent> kagentAgents = new LinkedHashMap<>();
    private FakeSlack slack;
    private Function<Vertx, Running> start;
    private Running running;
    private TestHttp testHttp;
    /** made on first use: each JDK client holds a selector thread, and most fixtures never post */
    private HttpClient http;

    private SwitchboardFixture(Vertx vertx, boolean ownsVertx) {
        this.vertx = vertx;
        this.ownsVertx = ownsVertx;
    }

    public Vertx vertx() {
        return vertx;
    }

    public SwitchboardApp app() {
        return running().app();
    }

    /** In watch mode ({@link Builder#kubernetes}), the app with its watch: {@code follow()} it to apply the cluster. */
    public WatchMode.Running watch() {
        if (running().watch() == null) {
            throw new IllegalStateException("not in watch mode: build the fixture with kubernetes(client, namespace)");
        }
        return running.watch();
    }

    private Running running() {
        if (running == null) {
            throw new IllegalStateException(start == null ? "no app: the fixture was built agentsOnly()"
                    : "the app is not running");
        }
        return running;
    }

    public String baseUrl() {
        return app().baseUrl();
    }

    /** The testkit agent the builder started as {@code name}. */
    public TestAgent agent(String name) {
        TestAgent a = agents.get(name);
        if (a == null) {
            throw new IllegalArgumentException("no agent " + name + " (agents: " + agents.keySet() + ")");
        }
        return a;
    }

    /** The agent's URL; for a kagent agent, kagent's (the agent is at {@code url/agents/default/<name>}). */
    public String url(String name) {
        KagentAgent k = kagentAgents.get(name);
        return k != null ? k.url() : agent(name).url();
    }

    public KagentAgent kagentAgent(String name) {
        KagentAgent k = kagentAgents.get(name);
        if (k == null) {
            throw new IllegalArgumentException("no kagent agent " + name + " (kagent agents: " + kagentAgents.keySet()
                    + ")");
        }
        return k;
    }

    public FakeSlack slack() {
        if (slack == null) {
            throw new IllegalStateException("no fake Slack: build the fixture with slack(options)");
        }
        return slack;
    }

    /** The web chat's API, as the page calls it. */
    public ChatApi chat() {
        return new ChatApi(app().baseUrl());
    }

    /**
     * A Vert.x HTTP/1.1 client on the app (the same one each time until a restart), closed with the fixture: the
     * gateway's and the registry's callers; headers such as an API key are given per request.
     */
    public TestHttp http() {
        if (testHttp == null) {
            testHttp = new TestHttp(vertx, baseUrl());
        }
        return testHttp;
    }

    /** Stops the app and starts a new one on the same configuration and store, the agents left running. */
    public SwitchboardFixture restart() {
        closeHttp();
        running().close().await();
        running = null;
        running = start.apply(vertx);
        return this;
    }

    /** POSTs {@code body} to {@code path} over real HTTP/1.1, with exactly the headers given. */
    public HttpResponse<String> post(String path, String body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                // no Expect: 100-continue: JDK 17's client can wait forever, its timeout too, when the answer to it is
                // a refusal (JDK-8286171); a refused body is read and dropped by the server before it closes instead
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        if (http == null) {
            http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                    .build();
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("POST " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A notification to the Trigger {@code name}, with the tests' trigger token ({@link ConfigYaml#TRIGGER_TOKEN}). */
    public HttpResponse<String> postTrigger(String name, String body) {
        return postTrigger(name, body, Map.of("Authorization", "Bearer " + ConfigYaml.TRIGGER_TOKEN,
                "Content-Type", "application/json"));
    }

    public HttpResponse<String> postTrigger(String name, String body, Map<String, String> headers) {
        return post("/triggers/" + name, body, headers);
    }

    private void closeHttp() {
        if (testHttp != null) {
            testHttp.close();
            testHttp = null;
        }
    }

    @Override
    public void close() {
        try {
            closeHttp();
            if (running != null) {
                running.close().await();
                running = null;
            }
        } finally {
            try {
                for (TestAgent a : agents.values()) {
                    a.close().await();
                }
                for (KagentAgent k : kagentAgents.values()) {
                    k.close();
                }
                if (slack != null) {
                    slack.close().await();
                }
            } finally {
                if (ownsVertx) {
                    vertx.close().await();
                }
            }
        }
    }
}
