package dev.switchboard.ops;

import io.vertx.ext.web.Router;
import java.util.List;
import java.util.function.Supplier;

/** {@code /healthz} (the process serves HTTP) and {@code /readyz} (it is ready for traffic). */
public final class HealthRoutes {

    private HealthRoutes() {}

    public static void mount(Router router) {
        mount(router, List::of);
    }

    /** @param notReady the conditions not met yet (e.g. watch mode's first sync); empty: ready */
    public static void mount(Router router, Supplier<List<String>> notReady) {
        router.get("/healthz").handler(ctx -> ctx.response()
                .putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store")
                .end("{\"status\":\"UP\"}"));
        router.get("/readyz").handler(ctx -> {
            List<String> waiting = notReady.get();
            ctx.response().putHeader("Content-Type", "application/json").putHeader("Cache-Control", "no-store");
            if (waiting.isEmpty()) {
                ctx.response().end("{\"status\":\"READY\"}");
            } else {
                io.vertx.core.json.JsonObject body = new io.vertx.core.json.JsonObject().put("status", "NOT_READY")
                        .put("waitingFor", new io.vertx.core.json.JsonArray(waiting));
                ctx.response().setStatusCode(503).end(body.encode());
            }
        });
    }
}
