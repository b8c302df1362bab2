package dev.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.gateway.support.Wait;
import dev.switchboard.ops.MetricsAccess;
import dev.switchboard.ops.Readiness;
import dev.switchboard.testing.ServerTest;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Routes} is the server's surface as it is served: every path of its tables answers on a started server (with
 * something other than the router's own 404), the router holds those routes and no others, and a path the tables do
 * not list is a 404.
 */
@ServerTest
class RoutesTest {

    @TempDir
    static Path dir;
    static Harness harness;

    @BeforeAll
    static void start() {
        harness = new Harness(dir).start();
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    @Test
    void everyPathOfTheTableIsServed() {
        List<Routes.Route> table = harness.app().routes();
        assertThat(table).isNotEmpty();
        for (Routes.Route route : table) {
            if (route.failure() || route.path() == null) {
                continue;
            }
            Reply reply = call(harness.http(), route.method(), route.path());
            assertThat(isTheRoutersOwn404(route.path(), reply))
                    .as("%s %s answered %s: %s", route.method(), route.path(), reply.status(), reply.text()).isFalse();
        }
    }

    @Test
    void theGatewaysBypassedPathsAreServedToo() {
        for (Routes.Bypass bypass : Routes.GATEWAY) {
            Reply reply = call(harness.http(), bypass.method(), bypass.path());
            assertThat(isTheRoutersOwn404(bypass.path(), reply)).as("%s %s", bypass.method(), bypass.path()).isFalse();
        }
    }

    @Test
    void theRouterServesTheTableAndNothingElse() {
        List<Routes.Route> table = harness.app().routes();
        List<io.vertx.ext.web.Route> served = harness.app().router().getRoutes();
        assertThat(served).hasSize(table.size());
        for (int i = 0; i < table.size(); i++) {
            String path = table.get(i).path();
            assertThat(served.get(i).getPath()).as("route %d", i)
                    .isEqualTo(path == null ? null : path.endsWith("*") ? path.substring(0, path.length() - 1) : path);
        }
    }

    @Test
    void aPathTheTableDoesNotListIsNotFound() {
        Reply reply = harness.http().get("/no/such/path");
        assertThat(reply.status()).isEqualTo(404);
        assertThat(isTheRoutersOwn404("/no/such/path", reply)).as(reply.text()).isTrue();
    }

    @Test
    void theOpsListenerAndTheStartingPortServeTheirTables() {
        Vertx vertx = harness.vertx;
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try {
            List<Routes.Route> ops = Routes.ops(new Readiness(), meters);
            HttpServer opsServer = serve(vertx, ops);
            try (TestHttp http = new TestHttp(vertx, "http://127.0.0.1:" + opsServer.actualPort())) {
                assertServed(http, ops);
                assertThat(isTheRoutersOwn404("/agents", http.get("/agents"))).isTrue();
            } finally {
                Wait.on(opsServer.close());
            }
            List<Routes.Route> starting = Routes.starting(new Readiness(), meters, MetricsAccess.OPEN);
            HttpServer startingServer = serve(vertx, starting);
            try (TestHttp http = new TestHttp(vertx, "http://127.0.0.1:" + startingServer.actualPort())) {
                assertServed(http, starting);
                // anything else waits for the app
                assertThat(http.get("/agents").status()).isEqualTo(503);
            } finally {
                Wait.on(startingServer.close());
            }
        } finally {
            meters.close();
        }
    }

    private static void assertServed(TestHttp http, List<Routes.Route> table) {
        for (Routes.Route route : table) {
            if (!route.failure() && route.path() != null) {
                Reply reply = call(http, route.method(), route.path());
                assertThat(isTheRoutersOwn404(route.path(), reply)).as("%s %s", route.method(), route.path()).isFalse();
            }
        }
    }

    private static HttpServer serve(Vertx vertx, List<Routes.Route> table) {
        return Wait.on(vertx.createHttpServer().requestHandler(Routes.router(vertx, table)).listen(0, "127.0.0.1"));
    }

    /** A request to a concrete path of {@code pattern}: each {@code :param} filled in, a trailing {@code *} left empty. */
    private static Reply call(TestHttp http, HttpMethod method, String pattern) {
        String path = pattern.replaceAll(":[A-Za-z]+", "x").replaceAll("\\*$", "");
        HttpMethod m = method == null ? HttpMethod.GET : method;
        String body = m == HttpMethod.POST ? "{}" : null;
        return Wait.on(http.send(m, path, body, "Content-Type", "application/json"));
    }

    /** The router's answer for a path no route took ({@link RouterErrors}): JSON-RPC under /a2a, plain JSON elsewhere. */
    private static boolean isTheRoutersOwn404(String path, Reply reply) {
        if (reply.status() != 404) {
            return false;
        }
        String text = reply.text();
        return path.startsWith("/a2a") ? text.contains("invalid request: not found")
                : text.replace(" ", "").equals("{\"error\":\"notfound\"}");
    }
}
