package dev.switchboard.app;

import dev.switchboard.config.HttpLimits;
import dev.switchboard.config.OpsListen;
import dev.switchboard.net.Addresses;
import dev.switchboard.ops.Readiness;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code Server.spec.ops.listen} address: {@code /metrics}, {@code /healthz} and {@code /readyz}, nothing else,
 * with no credentials asked (who reaches it is the operator's choice: loopback, or a port only the scraper's network
 * reaches). It has the main port's connection bounds, from its own listeners, and bound at start beside the main port.
 */
final class OpsListener {

    private static final Logger LOG = LoggerFactory.getLogger(OpsListener.class);

    private OpsListener() {}

    /** @param hosts the Host names it answers to: the main port's, and its own address (a rebinding page reads nothing) */
    static Future<SwitchboardServer> start(Vertx vertx, OpsListen at, HttpLimits limits, HostCheck hosts, Readiness readiness,
            PrometheusMeterRegistry meters) {
        Router router = Routes.router(vertx, Routes.ops(readiness, meters));
        return SwitchboardServer.start(vertx, router::handle, hosts::refused, at.host(), at.port(), limits,
                        // its routes are GETs: a body sent to them has a small budget of its own, apart from the main port's
                        new dev.switchboard.http.RequestBudget(64 * 1024))
                .onSuccess(s -> LOG.info("ops endpoints (/metrics, /healthz, /readyz) on {}{}", s.baseUrl(),
                        Addresses.isLoopbackOnly(at.host()) ? ""
                                : ": beyond loopback and without credentials; keep the port to the scraper's network"));
    }
}
