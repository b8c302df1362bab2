package dev.switchboard.app;

import dev.switchboard.ops.MetricsAccess;
import dev.switchboard.ops.Readiness;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import java.util.function.Predicate;

/**
 * What the listeners serve while the app is still starting: the port is bound at once, beside the store being opened
 * and migrated, so that {@code /readyz} can say what is pending (503) and {@code /healthz} and {@code /metrics}
 * answer; anything else is 503 "starting". Once the app is built, its router and gateway take every request.
 */
final class Starting {

    private final Router early;
    private volatile Router router;
    private volatile Predicate<HttpServerRequest> gateway;

    Starting(Vertx vertx, Readiness readiness, PrometheusMeterRegistry meters, MetricsAccess metrics) {
        // with RouterErrors' answers: a /metrics refused here (moved to ops.listen) is answered as the app would
        early = Routes.router(vertx, Routes.starting(readiness, meters, metrics));
    }

    /** The router's part: the app's router once it serves, the early one before. */
    void handle(HttpServerRequest request) {
        Router r = router;
        (r != null ? r : early).handle(request);
    }

    /** The gateway's part: false (the router's) until the app serves. */
    boolean front(HttpServerRequest request) {
        Predicate<HttpServerRequest> g = gateway;
        return g != null && g.test(request);
    }

    /** From now on the app's router and gateway take every request. */
    void serve(Router appRouter, Predicate<HttpServerRequest> appGateway) {
        gateway = appGateway;
        router = appRouter;
    }
}
