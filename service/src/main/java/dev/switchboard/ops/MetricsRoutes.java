package dev.switchboard.ops;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.ext.web.Router;

/** {@code /metrics} in the Prometheus text format (O3). */
public final class MetricsRoutes {

    private MetricsRoutes() {}

    public static void mount(Router router, PrometheusMeterRegistry meters) {
        router.get("/metrics").handler(ctx -> ctx.vertx()
                .executeBlocking(meters::scrape)
                .onSuccess(text -> ctx.response()
                        .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                        .end(text))
                .onFailure(ctx::fail));
    }
}
