package dev.switchboard.ops;

import dev.switchboard.net.Addresses;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.net.InetAddress;

/** {@code /metrics} in the Prometheus text format (O3), to the callers {@link MetricsAccess} lets read them. */
public final class MetricsRoutes {

    private MetricsRoutes() {}

    /** {@code GET /metrics}. */
    public static Handler<RoutingContext> handler(PrometheusMeterRegistry meters, MetricsAccess access) {
        return ctx -> {
            // the connection's peer, never a forwarded header: a proxy's word is no credential here
            MetricsAccess.Verdict verdict = access.verdict(remote(ctx), ctx.request().getHeader("Authorization"));
            switch (verdict) {
                case NOT_FOUND -> ctx.fail(404);
                case TOKEN_NEEDED -> refuse(ctx, 401, "the metrics need the admin token from beyond this machine "
                        + "(Authorization: Bearer <token>)");
                case LOOPBACK_ONLY -> refuse(ctx, 403, "the metrics are served to this machine only (no admin token "
                        + "is set); see Server.spec.ops.listen");
                case SERVED -> ctx.vertx()
                        .executeBlocking(meters::scrape)
                        .onSuccess(text -> ctx.response()
                                .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                                .end(text))
                        .onFailure(ctx::fail);
            }
        };
    }

    private static void refuse(RoutingContext ctx, int status, String why) {
        if (status == 401) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"switchboard\"");
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store")
                .end(new io.vertx.core.json.JsonObject().put("error", why).encode());
    }

    private static InetAddress remote(RoutingContext ctx) {
        SocketAddress peer = ctx.request().connection().remoteAddress();
        return peer == null || peer.hostAddress() == null ? null : Addresses.literal(peer.hostAddress()).orElse(null);
    }
}
