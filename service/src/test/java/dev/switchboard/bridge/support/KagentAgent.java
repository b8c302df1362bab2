package dev.switchboard.bridge.support;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.nio.file.Path;

/**
 * A testkit agent served where kagent serves an agent, {@code <url>/agents/default/<name>}, and a Switchboard with a
 * kagent-v1 backend for it and a web channel of the same name: the setup of the kagent end-to-end tests (API and
 * browser). The agent's server lives as long as the Vert.x it was started on.
 */
public final class KagentAgent {

    private final String name;
    private final String url;
    private final Recorder recorder;

    private KagentAgent(String name, String url, Recorder recorder) {
        this.name = name;
        this.url = url;
        this.recorder = recorder;
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
        return new KagentAgent(name, url, recorder);
    }

    /** A Switchboard storing in {@code store}, with a kagent-v1 backend for this agent and its web channel. */
    public SwitchboardApp switchboard(Vertx vertx, Path store) {
        return BridgeConfig.server(store, false, BridgeConfig.QUICK_CONTRACT).kagentBackend(name, url, null).start(vertx);
    }

    /** kagent's URL, the one a kagent-v1 backend names: the agent is at {@code url()/agents/default/<name>}. */
    public String url() {
        return url;
    }

    /** Every request the agent received. */
    public Recorder recorder() {
        return recorder;
    }
}
