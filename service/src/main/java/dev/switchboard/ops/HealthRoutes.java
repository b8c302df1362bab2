package dev.switchboard.ops;

import io.vertx.ext.web.Router;

/** {@code /healthz} (the process serves HTTP) and {@code /readyz} (it is ready for traffic). */
public final class HealthRoutes {

    private HealthRoutes() {}

    public static void mount(Router router) {
        router.get("/healthz").handler(ctx -> ctx.response()
                .putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store")
                .end("{\"status\":\"UP\"}"));
        router.get("/readyz").handler(ctx -> ctx.response()
                .putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store")
                .end("{\"status\":\"READY\"}"));
    }
}
