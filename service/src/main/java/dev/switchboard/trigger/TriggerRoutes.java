package dev.switchboard.trigger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.bridge.TurnRefused;
import dev.switchboard.http.JsonHttp;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /triggers/{name}}: 404 for no such trigger, 401 without the trigger's own bearer token, 415 unless the
 * body is JSON, 429 (with Retry-After) beyond the trigger's rate, 413 beyond {@link #MAX_BODY}, 400 naming the field a
 * payload gets wrong, and 202 {@code {threadId, messageId, duplicate}} once the turn is written. A failure on our side
 * is a 503 with Retry-After: Alertmanager retries a 5xx, and the retry is the same turn.
 */
public final class TriggerRoutes {

    private static final Logger LOG = LoggerFactory.getLogger(TriggerRoutes.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Alertmanager's payloads are a few KB per alert; a full one of a large group stays well below this. */
    public static final long MAX_BODY = 1024 * 1024;
    private static final String TRIGGER = "switchboard.trigger";

    private final Vertx vertx;
    private final Triggers triggers;

    public TriggerRoutes(Vertx vertx, Triggers triggers) {
        this.vertx = vertx;
        this.triggers = triggers;
    }

    /** Any other method on a trigger's path. */
    public static void wrongMethod(RoutingContext ctx) {
        ctx.response().putHeader("Allow", "POST");
        JsonHttp.error(ctx.response(), 405, "use POST with the notification as a JSON body", null);
    }

    /** What failed under {@code /triggers/}, Vert.x's own refusals (a body over the limit) included, in our words. */
    public static void failed(RoutingContext ctx) {
        int status = ctx.statusCode();
        if (status == 413) {
            JsonHttp.error(ctx.response(), 413, "body: larger than " + (MAX_BODY / 1024) + " KiB", "body");
        } else if (status >= 400 && status < 500) {
            JsonHttp.error(ctx.response(), status, "the request was refused", null);
        } else if (JsonHttp.callersFault(ctx.failure())) {
            // a body Vert.x or Netty could not read (e.g. a malformed chunk size): the caller's, not a failure of ours
            ctx.response().putHeader("Connection", "close");
            JsonHttp.error(ctx.response(), 400, "body: the request could not be read", "body");
        } else {
            LOG.error("trigger {} failed", ctx.pathParam("name"), ctx.failure());
            ctx.response().putHeader("Retry-After", "10");
            JsonHttp.error(ctx.response(), 503, "the notification could not be recorded; deliver it again", null);
        }
    }

    /**
     * Trigger (404), token (401), JSON (415), rate (429): all before the body is read (the web chat's guard does the
     * same); the body handler comes after it.
     */
    public void guard(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        Triggers.Trigger t = triggers.find(ctx.pathParam("name")).orElse(null);
        if (t == null) {
            JsonHttp.error(response, 404, "no such trigger", "name");
            return;
        }
        String auth = ctx.request().getHeader("Authorization");
        String token = auth != null && auth.length() > 7 && auth.regionMatches(true, 0, "Bearer ", 0, 7)
                ? auth.substring(7).trim() : null;
        if (token == null || !Triggers.tokenMatches(t, token)) {
            response.putHeader("WWW-Authenticate", "Bearer realm=\"switchboard-trigger\"");
            JsonHttp.error(response, 401, "Authorization: Bearer <the trigger's token> is required", "Authorization");
            return;
        }
        String type = ctx.request().getHeader("Content-Type");
        String media = type == null ? "" : type.split(";", 2)[0].trim();
        if (!media.equalsIgnoreCase("application/json")) {
            JsonHttp.error(response, 415, "Content-Type: application/json is required", "Content-Type");
            return;
        }
        long wait = t.rate().take();
        if (wait > 0) {
            response.putHeader("Retry-After", Long.toString(wait));
            JsonHttp.error(response, 429, "trigger " + t.settings().name() + " takes at most "
                    + t.settings().perMinute() + " notifications a minute (bursts of " + t.settings().burst() + ")", null);
            return;
        }
        ctx.put(TRIGGER, t);
        ctx.next();
    }

    public void deliver(RoutingContext ctx) {
        Triggers.Trigger t = ctx.get(TRIGGER);
        JsonNode body = JsonHttp.body(ctx, "body: a JSON notification is required");
        if (body == null) {
            return;
        }
        Notification n;
        try {
            n = Triggers.read(t, body);
        } catch (BadPayload e) {
            JsonHttp.error(ctx.response(), 400, e.getMessage(), e.field());
            return;
        }
        // a sender that traces (a webhook relay, a script) gets the turn in its own trace
        String traceparent = ctx.request().getHeader("traceparent");
        String tracestate = ctx.request().getHeader("tracestate");
        JsonHttp.blocking(vertx, () -> triggers.deliver(t, n, traceparent, tracestate), accepted -> {
            ObjectNode out = JSON.createObjectNode();
            out.put("threadId", accepted.threadId());
            out.put("messageId", accepted.messageId());
            out.put("duplicate", accepted.duplicate());
            JsonHttp.json(ctx.response(), 202, out);
        }, failure -> refused(ctx.response(), t, failure));
    }

    /** Our own words for why a notification was not taken; never an exception's text. */
    private static void refused(HttpServerResponse response, Triggers.Trigger t, Throwable cause) {
        if (cause instanceof TurnRefused.QueueFull q) {
            response.putHeader("Retry-After", "30");
            JsonHttp.error(response, 503, "this alert group's thread already has " + q.limit()
                    + " turns waiting for the agent; deliver it again later", null);
        } else if (cause instanceof TurnRefused.MessageIdTaken) {
            JsonHttp.error(response, 409, "this notification's messageId is used by another message", null);
        } else {
            LOG.error("trigger {}: a notification could not be recorded: {}", t.settings().name(), cause.toString());
            response.putHeader("Retry-After", "10");
            JsonHttp.error(response, 503, cause instanceof Triggers.OpenFailed
                    ? "the thread could not be opened on the binding's platform; deliver it again"
                    : "the notification could not be recorded; deliver it again", null);
        }
    }
}
