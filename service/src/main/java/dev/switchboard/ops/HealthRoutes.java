package dev.switchboard.ops;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * {@code /healthz} (the process serves HTTP) and {@code /readyz} (it is ready for traffic: 200 when every
 * {@link Readiness} condition is met, else 503 naming the pending ones).
 */
public final class HealthRoutes {

    private HealthRoutes() {}

    /** {@code GET /healthz}: answering at all is the answer. */
    public static void healthz(RoutingContext ctx) {
        ctx.response()
                .putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store")
                .end("{\"status\":\"UP\"}");
    }

    /** {@code GET /readyz}: 200 once every condition of {@code readiness} is met, else 503 naming the pending ones. */
    public static Handler<RoutingContext> readyz(Readiness readiness) {
        return ctx -> {
            List<String> pending = readiness.pendingNames();
            JsonObject body = pending.isEmpty() ? new JsonObject().put("status", "READY")
                    : new JsonObject().put("status", "NOT_READY").put("pending", new JsonArray(List.copyOf(pending)));
            ctx.response()
                    .setStatusCode(pending.isEmpty() ? 200 : 503)
                    .putHeader("Content-Type", "application/json")
                    .putHeader("Cache-Control", "no-store")
                    .end(body.encode());
        };
    }
}
