package dev.switchboard.testing;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.BridgeConfig;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
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
 * at it. Closing it closes the app, then the agents, then its Vert.x. Nothing of Switchboard is mocked.
 *
 * <pre>{@code
 * try (SwitchboardFixture sb = SwitchboardFixture.builder()
 *         .agent("sre", TestAgentOptions.echo("sre"))
 *         .yaml(agents -> BridgeConfig.server(dir.resolve("s.db"), "").webBackend("sre", agents.url("sre"), null))
 *         .start()) {
 *     sb.chat().newThread("sre", "hello");
 * }
 * }</pre>
 */
public final class SwitchboardFixture implements AutoCloseable {

    /** The agents the builder started, by the names it gave them. */
    @FunctionalInterface
    public interface Agents {
        TestAgent agent(String name);

        default String url(String name) {
            return agent(name).url();
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private Vertx vertx;
        private final Map<String, TestAgentOptions> agents = new LinkedHashMap<>();
        private Function<Agents, Function<Vertx, Future<SwitchboardApp>>> starter;

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

        /** The configuration as an operator writes it (so the config loader is part of what is tested). */
        public Builder yaml(Function<Agents, BridgeConfig> config) {
            starter = agents -> {
                BridgeConfig c = config.apply(agents);
                return v -> Future.succeededFuture(c.start(v));
            };
            return this;
        }

        /** The configuration as records, for tests about a setting the YAML would refuse or not reach. */
        public Builder config(Function<Agents, SwitchboardConfig> config) {
            starter = agents -> {
                SwitchboardConfig c = config.apply(agents);
                return v -> SwitchboardApp.start(v, c);
            };
            return this;
        }

        public SwitchboardFixture start() {
            if (starter == null) {
                throw new IllegalStateException("no configuration: call yaml(...) or config(...)");
            }
            boolean owned = vertx == null;
            SwitchboardFixture f = new SwitchboardFixture(owned ? Vertx.vertx() : vertx, owned);
            try {
                agents.forEach((name, options) -> f.agents.put(name, TestAgent.start(f.vertx, options, 0).await()));
                f.start = starter.apply(name -> {
                    TestAgent a = f.agents.get(name);
                    if (a == null) {
                        throw new IllegalArgumentException("no agent " + name + " (agents: " + f.agents.keySet() + ")");
                    }
                    return a;
                });
                f.app = f.start.apply(f.vertx).await();
                return f;
            } catch (RuntimeException | Error e) {
                f.close();
                throw e;
            }
        }
    }

    private final Vertx vertx;
    private final boolean ownsVertx;
    private final Map<String, TestAgent> agents = new LinkedHashMap<>();
    private Function<Vertx, Future<SwitchboardApp>> start;
    private SwitchboardApp app;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private SwitchboardFixture(Vertx vertx, boolean ownsVertx) {
        this.vertx = vertx;
        this.ownsVertx = ownsVertx;
    }

    public Vertx vertx() {
        return vertx;
    }

    public SwitchboardApp app() {
        return app;
    }

    public String baseUrl() {
        return app.baseUrl();
    }

    public TestAgent agent(String name) {
        TestAgent a = agents.get(name);
        if (a == null) {
            throw new IllegalArgumentException("no agent " + name + " (agents: " + agents.keySet() + ")");
        }
        return a;
    }

    /** The web chat's API, as the page calls it. */
    public ChatApi chat() {
        return new ChatApi(app.baseUrl());
    }

    /** Stops the app and starts a new one on the same configuration and store, the agents left running. */
    public SwitchboardFixture restart() {
        app.close().await();
        app = null;
        app = start.apply(vertx).await();
        return this;
    }

    /** POSTs {@code body} to {@code path} over real HTTP/1.1, with exactly the headers given. */
    public HttpResponse<String> post(String path, String body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(app.baseUrl() + path))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("POST " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A notification to the Trigger {@code name}, with the tests' trigger token ({@link BridgeConfig#TRIGGER_TOKEN}). */
    public HttpResponse<String> postTrigger(String name, String body) {
        return postTrigger(name, body, Map.of("Authorization", "Bearer " + BridgeConfig.TRIGGER_TOKEN,
                "Content-Type", "application/json"));
    }

    public HttpResponse<String> postTrigger(String name, String body, Map<String, String> headers) {
        return post("/triggers/" + name, body, headers);
    }

    @Override
    public void close() {
        try {
            if (app != null) {
                app.close().await();
            }
        } finally {
            try {
                for (TestAgent a : agents.values()) {
                    a.close().await();
                }
            } finally {
                if (ownsVertx) {
                    vertx.close().await();
                }
            }
        }
    }
}
