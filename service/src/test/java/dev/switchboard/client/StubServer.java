package dev.switchboard.client;

import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A purpose-built HTTP server for one failure rule: it records what arrived (with the body read
 * first), then lets the test's handler answer however it likes, misbehaviour included.
 */
final class StubServer implements AutoCloseable {

    /** One request as the server saw it. */
    record Received(String method, String path, MultiMap headers, String body) {}

    private final HttpServer server;
    final List<Received> received = new CopyOnWriteArrayList<>();
    /** Connections closed by either side, to see that the client reset a request. */
    final AtomicInteger closedConnections = new AtomicInteger();

    private StubServer(HttpServer server) {
        this.server = server;
    }

    static StubServer start(Vertx vertx, Handler<HttpServerRequest> handler) throws Exception {
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0));
        StubServer stub = new StubServer(server);
        server.connectionHandler(connection -> connection.closeHandler(v -> stub.closedConnections.incrementAndGet()));
        server.requestHandler(request -> request.body().onSuccess(body -> {
            stub.received.add(new Received(request.method().name(), request.path(),
                    MultiMap.caseInsensitiveMultiMap().addAll(request.headers()), body.toString()));
            handler.handle(request);
        }));
        server.listen().toCompletionStage().toCompletableFuture().get();
        return stub;
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.actualPort() + path;
    }

    int hits(String path) {
        return (int) received.stream().filter(r -> r.path().equals(path)).count();
    }

    @Override
    public void close() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get();
    }
}
