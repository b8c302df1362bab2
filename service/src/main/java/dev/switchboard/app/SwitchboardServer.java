package dev.switchboard.app;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import dev.switchboard.config.HttpLimits;
import dev.switchboard.http.RequestBudget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP server of a Switchboard process: one listener per event loop it uses, all on the same
 * port (Vert.x spreads connections over them), so the gateway is not held to one core. Features
 * contribute routes to the shared router before it starts; their handlers keep no per-loop state.
 */
public final class SwitchboardServer {

    private static final AtomicInteger RANDOM_PORT_KEYS = new AtomicInteger();

    private final Vertx vertx;
    private final List<String> deployments;
    private final String host;
    private final int port;
    private final InFlight inFlight;
    private final RequestBodies bodies;

    private SwitchboardServer(Vertx vertx, List<String> deployments, String host, int port, InFlight inFlight,
            RequestBodies bodies) {
        this.bodies = bodies;
        this.vertx = vertx;
        this.deployments = deployments;
        this.host = host;
        this.port = port;
        this.inFlight = inFlight;
    }

    /**
     * Listens on host:port (port 0 picks a free one) with one listener per core and serves the router.
     * The front handler may take a request before the router (the gateway's hot path); it returns false
     * for requests it leaves to the router. Every body the router reads counts against {@code budget} before it is
     * read; the front handler reserves its own from the same budget.
     */
    public static Future<SwitchboardServer> start(Vertx vertx, Handler<HttpServerRequest> router, Predicate<HttpServerRequest> front,
            String host, int port, HttpLimits limits, RequestBudget budget) {
        return start(vertx, router, front, host, port, limits, new RequestBodies(budget), Runtime.getRuntime().availableProcessors());
    }

    private static Future<SwitchboardServer> start(Vertx vertx, Handler<HttpServerRequest> router, Predicate<HttpServerRequest> front,
            String host, int port, HttpLimits limits, RequestBodies bodies, int listeners) {
        AtomicInteger open = new AtomicInteger();
        InFlight inFlight = new InFlight();
        List<String> deployments = new CopyOnWriteArrayList<>();
        Promise<Integer> bound = Promise.promise();
        // Vert.x shares a server between listeners by the port they ask for, not the one they get: for port 0
        // they all ask for the same negative port, Vert.x's key for "one random port, shared", unique per server
        int asked = port == 0 ? -RANDOM_PORT_KEYS.incrementAndGet() : port;
        // the first listener picks the port (when 0 was asked for); the others join it
        return vertx.deployVerticle(new Listener(router, front, host, asked, bound, limits, open, inFlight, bodies))
                .compose(id -> {
                    deployments.add(id);
                    int actual = bound.future().result();
                    if (listeners <= 1) {
                        return Future.succeededFuture(actual);
                    }
                    return vertx.deployVerticle(() -> new Listener(router, front, host, asked, Promise.promise(), limits, open, inFlight, bodies),
                                    new DeploymentOptions().setInstances(listeners - 1))
                            .map(more -> {
                                deployments.add(more);
                                return actual;
                            });
                })
                .map(actual -> new SwitchboardServer(vertx, deployments, host, actual, inFlight, bodies));
    }

    /** One listener, on the event loop of its verticle. */
    private static final class Listener extends VerticleBase {
        private final Handler<HttpServerRequest> router;
        private final Predicate<HttpServerRequest> front;
        private final String host;
        private final int port;
        private final Promise<Integer> bound;
        private final HttpLimits limits;
        private final AtomicInteger open;
        private final InFlight inFlight;
        private final RequestBodies bodies;
        private ConnectionGuard guard;

        Listener(Handler<HttpServerRequest> router, Predicate<HttpServerRequest> front, String host, int port, Promise<Integer> bound,
                HttpLimits limits, AtomicInteger open, InFlight inFlight, RequestBodies bodies) {
            this.inFlight = inFlight;
            this.bodies = bodies;
            this.router = router;
            this.front = front;
            this.host = host;
            this.port = port;
            this.bound = bound;
            this.limits = limits;
            this.open = open;
        }

        @Override
        public Future<?> start() {
            // HTTP/1.1 only: SSE needs nothing more, and clients that upgrade to cleartext HTTP/2 (the
            // JDK's) report their own end-of-stream cancel as an error there
            HttpServerOptions options = new HttpServerOptions().setHost(host).setPort(port)
                    .setHttp2ClearTextEnabled(false)
                    // no WebSocket is served: without these, every connection carries a WebSocket extension handler
                    // that every inbound message passes through
                    .setPerMessageWebSocketCompressionSupported(false)
                    .setPerFrameWebSocketCompressionSupported(false);
            guard = new ConnectionGuard(vertx, context, limits, open);
            guard.start();
            inFlight.watch(guard);
            return vertx.createHttpServer(options)
                    .connectionHandler(guard::connected)
                    .requestHandler(request -> {
                        ConnectionGuard.Tracked connection = guard.request(request);
                        if (!inFlight.admit(request)) {
                            return;
                        }
                        if (front.test(request)) {
                            InFlight.track(connection, request, true);
                        } else {
                            // the router's routes read bodies before they know who sent them: budgeted here, first
                            HttpServerRequest admitted = bodies.admit(request, connection);
                            if (admitted == null) {
                                return;
                            }
                            InFlight.track(connection, request, false);
                            router.handle(admitted);
                        }
                    })
                    .listen()
                    .onSuccess((HttpServer s) -> bound.tryComplete(s.actualPort()));
        }

        @Override
        public Future<?> stop() {
            if (guard != null) {
                guard.stop();
                inFlight.unwatch(guard);
            }
            return Future.succeededFuture();
        }
    }

    /** The budget every request body counts against, the gateway's included. */
    public RequestBudget requestBudget() {
        return bodies.budget();
    }

    public int port() {
        return port;
    }

    /** The URL clients use to reach this server; a wildcard listen address is shown as 127.0.0.1. */
    public String baseUrl() {
        return baseUrl(host, port());
    }

    public static String baseUrl(String host, int port) {
        String shown = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        if (shown.contains(":")) {
            shown = "[" + shown + "]";
        }
        return "http://" + shown + ":" + port;
    }

    /**
     * The first step of a shutdown: new requests are answered 503 from now on (the probes and the metrics still
     * answer); completes when the gateway calls and API writes in flight have finished, or after {@code grace}.
     */
    public Future<Void> drain(Duration grace) {
        return inFlight.drain(vertx, grace);
    }

    public Future<Void> close() {
        return Future.all(deployments.stream().map(vertx::undeploy).toList()).mapEmpty();
    }
}
