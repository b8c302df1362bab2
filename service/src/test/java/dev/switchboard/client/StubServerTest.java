package dev.switchboard.client;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * A class of client rule tests, each against a {@link StubServer} built to break the rule: the clients
 * live for the whole class, the servers for one test.
 */
abstract class StubServerTest {

    static Vertx vertx;
    static A2aAgentClient client;
    /**
     * {@link #hasty}'s limit: short, so that the timeout rules run in seconds, yet long enough for a loaded
     * machine to get the response headers of a prompt server through in time.
     */
    static final Duration HASTY_TIMEOUT = Duration.ofSeconds(1);
    /** For the timeout rules only: a short limit everywhere else would make the suite flaky on a busy machine. */
    static A2aAgentClient hasty;
    private final List<StubServer> servers = new ArrayList<>();

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        client = new A2aAgentClient(vertx, Duration.ofSeconds(10));
        hasty = new A2aAgentClient(vertx, HASTY_TIMEOUT);
    }

    @AfterAll
    static void stop() throws Exception {
        client.close().toCompletionStage().toCompletableFuture().get();
        hasty.close().toCompletionStage().toCompletableFuture().get();
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }

    @AfterEach
    void closeServers() throws Exception {
        for (StubServer s : servers) {
            s.close();
        }
    }

    /** A server, closed after the test, that answers with {@code handler}. */
    StubServer server(Handler<HttpServerRequest> handler) throws Exception {
        StubServer s = StubServer.start(vertx, handler);
        servers.add(s);
        return s;
    }
}
