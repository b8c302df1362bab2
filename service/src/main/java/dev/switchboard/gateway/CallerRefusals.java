package dev.switchboard.gateway;

import dev.switchboard.auth.Caller;
import dev.switchboard.log.LogContext;
import dev.switchboard.policy.CallerLimits;
import dev.switchboard.policy.Grants;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.http.HttpServerRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's answers to a call its caller may not make (403: no AccessPolicy grants it) or not make now (429: over
 * one of the caller's limits): counted, logged at INFO with the caller and the AccessPolicy that decided (MDC keys
 * {@value #CALLER_KEY} and {@value #POLICY_KEY}; {@code none} when no policy granted), and answered with a JSON-RPC
 * error that names the missing grant or the limit. No agent is contacted.
 */
final class CallerRefusals {

    private static final Logger LOG = LoggerFactory.getLogger(CallerRefusals.class);
    static final String CALLER_KEY = "caller";
    static final String POLICY_KEY = "policy";

    /** How a refusal is answered when the body is unread: the handler's, which reads a small body for its id. */
    interface Refuse {
        void refuse(HttpServerRequest request, GatewayException e, int status, boolean retryAfter);
    }

    private final GatewayMetrics metrics;
    private final Refuse refuse;

    CallerRefusals(GatewayMetrics metrics, Refuse refuse) {
        this.metrics = metrics;
        this.refuse = refuse;
    }

    /** 403: no AccessPolicy grants the caller the agent (or, with {@code fields}, the method). */
    void forbidden(HttpServerRequest request, RegisteredAgent agent, Caller caller, RoutingFields fields,
            Grants.Decision decision, GatewaySpan span, boolean bodyUnread) {
        String method = fields == null ? null : fields.method();
        try (LogContext ids = LogContext.agent(agent.id()).and(CALLER_KEY, caller.id()).and(POLICY_KEY, "none")) {
            LOG.info("call refused (403): {}", decision.refusal());
        }
        metrics.record(agent.id(), method, GatewayMetrics.Outcome.FORBIDDEN, -1);
        span.end(agent.id(), method, GatewayMetrics.Outcome.FORBIDDEN, 403);
        GatewayException e = new GatewayException(fields == null ? null : fields.id(), GatewayErrorCodes.FORBIDDEN,
                decision.refusal(), GatewayException.Kind.REQUEST);
        if (bodyUnread) {
            refuse.refuse(request, e, 403, false);
        } else if (fields == null) {
            GatewayReplies.unread(request, e, 403, false);
        } else {
            GatewayReplies.error(request.response(), e, 403, false);
        }
    }

    /** 429 with Retry-After: the caller is over one of its limits. */
    void rateLimited(HttpServerRequest request, RegisteredAgent agent, Caller caller, Grants.Decision granted,
            CallerLimits.Limited limited, GatewaySpan span) {
        String message = "rate limited: caller " + caller.id() + " is over its " + describe(limited.limit(), agent)
                + "; retry in " + limited.retryAfterSeconds() + " s";
        // the policy that decided: the one whose rateLimit applied, or the one that granted the call
        String policy = granted.policy() == null ? "none" : granted.policy();
        try (LogContext ids = LogContext.agent(agent.id()).and(CALLER_KEY, caller.id()).and(POLICY_KEY, policy)) {
            LOG.info("call refused (429): {}", message);
        }
        metrics.rateLimited(agent.id(), limited.limit().label());
        metrics.record(agent.id(), null, GatewayMetrics.Outcome.RATE_LIMITED, -1);
        span.end(agent.id(), null, GatewayMetrics.Outcome.RATE_LIMITED, 429);
        request.response().putHeader("Retry-After", Long.toString(limited.retryAfterSeconds()));
        refuse.refuse(request, new GatewayException(null, GatewayErrorCodes.RATE_LIMITED, message,
                GatewayException.Kind.TRANSPORT_RETRYABLE), 429, false);
    }

    private static String describe(CallerLimits.Limit limit, RegisteredAgent agent) {
        return switch (limit) {
            case CALLER -> "rate limit (callerLimits.rate)";
            case CALLER_AGENT -> "rate limit for agent " + agent.id() + " (callerLimits.perAgent or its AccessPolicy's "
                    + "rateLimit)";
            case CALLER_CONCURRENCY -> "concurrency limit (callerLimits.maxConcurrency calls in flight)";
        };
    }
}
