package dev.switchboard.bridge.support;

import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/**
 * A testkit agent served where kagent serves an agent, {@code <url>/agents/default/<name>}: what a kagent-v1 backend
 * calls (the kagent end-to-end tests, API and browser, and the kagent check). Started by
 * {@code SwitchboardFixture.Builder#kagentAgent}; a Switchboard for it is
 * {@code ConfigYaml.server(...).kagentBackend(name, url, null)}.
 */
public final class KagentAgent {

    private final String name;
    private final String url;
    private final Recorder recorder;
    private final HttpServer server;

    private KagentAgent(String name, String url, Recorder recorder, HttpServer server) {
        this.name = name;
        this.url = url;
        this.recorder = recorder;
        this.server = server;
    }

    /** Serves the testkit agent with {@code options} (e.g. {@code TestAgentOptions.kagent(name)}) at /agents/default/{@code name}. */
    public static KagentAgent start(Vertx vertx, String name, TestAgentOptions options) {
        Recorder recorder = new Recorder();
        Router router = Router.router(vertx);
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(router).listen().await();
        String url = "http://127.0.0.1:" + server.actualPort();
        String path = "/agents/default/" + name;
        router.route(path + "/*").subRouter(TestAgent.router(vertx, options, url + path, recorder));
        return new KagentAgent(name, url, recorder, server);
    }

    public String name() {
        return name;
    }

    /** kagent's URL, the one a kagent-v1 backend names: the agent is at {@code url()/agents/default/<name>}. */
    public String url() {
        return url;
    }

    /** Every request the agent received. */
    public Recorder recorder() {
        return recorder;
    }

    public void close() {
        server.close().await();
    }
}
