package dev.switchboard.testkit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A scriptable A2A agent on Vert.x for tests, the demo and benchmarks. It serves JSON-RPC at its
 * endpoint and its card at {@code <endpoint>/.well-known/agent-card.json}, speaks A2A 1.0 and 0.3,
 * and does what each message's directive (see {@link Behavior}) or its default behaviour says.
 */
public final class TestAgent {

    static final String CARD_PATH = "/.well-known/agent-card.json";

    private final HttpServer server;
    private final String url;
    private final Recorder recorder;
    private final ScriptPlayer player;

    private TestAgent(HttpServer server, String url, Recorder recorder, ScriptPlayer player) {
        this.server = server;
        this.url = url;
        this.recorder = recorder;
        this.player = player;
    }

    /** Starts an agent on 127.0.0.1:{@code port} (0 for an ephemeral port). */
    public static Future<TestAgent> start(Vertx vertx, TestAgentOptions options, int port) {
        Recorder recorder = new Recorder();
        ScriptPlayer player = new ScriptPlayer(vertx);
        // The card must advertise the real port, which an ephemeral listen only tells afterwards.
        AtomicReference<Router> router = new AtomicReference<>();
        // HTTP/1.1 only, like the Node and Python agents it stands in for: no h2c upgrade for the JDK client to take.
        HttpServer server = vertx.createHttpServer(
                new HttpServerOptions().setHost("127.0.0.1").setPort(port).setHttp2ClearTextEnabled(false));
        server.requestHandler(request -> route(router.get(), request));
        return server.listen().map(listening -> {
            String url = "http://127.0.0.1:" + listening.actualPort() + "/";
            router.set(router(vertx, options, url, recorder, player));
            return new TestAgent(listening, url, recorder, player);
        });
    }

    /**
     * The agent as a sub-router, to mount several agents on one server, e.g.
     * {@code main.route("/demo/echo/*").subRouter(TestAgent.router(vertx, options, "http://127.0.0.1:8080/demo/echo", new Recorder()))}.
     *
     * @param publicEndpointUrl the endpoint URL as callers see it; the card advertises it
     */
    public static Router router(Vertx vertx, TestAgentOptions options, String publicEndpointUrl, Recorder recorder) {
        return router(vertx, options, publicEndpointUrl, recorder, new ScriptPlayer(vertx));
    }

    private static Router router(Vertx vertx, TestAgentOptions options, String endpointUrl, Recorder recorder,
            ScriptPlayer player) {
        Router router = Router.router(vertx);
        router.get(CARD_PATH).handler(new CardEndpoint(options, endpointUrl, recorder));
        router.post().handler(BodyHandler.create().setBodyLimit(16 * 1024 * 1024));
        // The endpoint with or without its trailing slash: a mounted agent is called at /demo/echo as well as /demo/echo/.
        router.postWithRegex("^/?$").handler(new RpcEndpoint(options, endpointUrl, recorder, player));
        return router;
    }

    private static void route(Router router, HttpServerRequest request) {
        if (router == null) {
            request.response().setStatusCode(503).end("testkit agent is starting");
        } else {
            router.handle(request);
        }
    }

    public int port() {
        return server.actualPort();
    }

    /** The JSON-RPC endpoint, e.g. {@code http://127.0.0.1:PORT/}. */
    public String url() {
        return url;
    }

    public String cardUrl() {
        return url.replaceAll("/+$", "") + CARD_PATH;
    }

    public Recorder recorder() {
        return recorder;
    }

    /** Stops the pending scripts and closes the server with its open connections. */
    public Future<Void> close() {
        player.stop();
        return server.close();
    }
}
