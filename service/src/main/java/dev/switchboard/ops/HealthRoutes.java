package dev.switchboard.ops;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.List;

/**
 * {@code /healthz} (the process serves HTTP) and {@code /readyz} (it is ready for traffic: 200 when every
 * {@link Readiness} condition is met, else 503 naming the pending ones).
 */
public final class HealthRoutes {

    private HealthRoutes() {}

    public static void mount(Router router, Readiness readiness) {
        router.get("/healthz").handler(ctx -> ctx.response()
                .putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store")
                .end("{\"status\":\"UP\"}"));
        router.get("/readyz").handler(ctx -> {
            List<String> pending = readiness.pendingNames();
            JsonObject body = pending.isEmpty() ? new JsonObject().put("status", "READY")
                    : new JsonObject().put("status", "NOT_READY").put("pending", new JsonArray(List.copyOf(pending)));
            ctx.response()
                    .setStatusCode(pending.isEmpty() ? 200 : 503)
                    .putHeader("Content-Type", "application/json")
                    .putHeader("Cache-Control", "no-store")
                    .end(body.encode());
        });
    }
}
