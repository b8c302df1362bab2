package dev.switchboard.gateway.support;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** An identity provider's JWKS endpoint on an ephemeral loopback port, whose keys a test changes; counts fetches. */
public final class JwksServer implements AutoCloseable {

    private final HttpServer server;
    private volatile String jwks;
    private final AtomicInteger fetches = new AtomicInteger();

    public JwksServer(Vertx vertx, String jwks) {
        this.jwks = jwks;
        try {
            this.server = vertx.createHttpServer().requestHandler(r -> {
                fetches.incrementAndGet();
                r.response().putHeader("Content-Type", "application/json").end(this.jwks);
            }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public String uri() {
        return "http://127.0.0.1:" + server.actualPort() + "/jwks.json";
    }

    public void serve(String newJwks) {
        this.jwks = newJwks;
    }

    public int fetches() {
        return fetches.get();
    }

    @Override
    public void close() {
        server.close();
    }
}
