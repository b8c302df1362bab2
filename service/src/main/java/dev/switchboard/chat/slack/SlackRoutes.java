package dev.switchboard.chat.slack;

import dev.switchboard.http.JsonHttp;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Events API's endpoints, {@code POST /slack/events} and {@code POST /slack/interactions}. Each request is
 * verified against the signing secret of every app in events mode (the one that verifies it is the sender), on its
 * raw bytes, before anything is read from it; a forged, stale or unsigned request gets 401 and nothing else.
 * Events are written to the store and acknowledged with 200 before any agent work.
 */
public final class SlackRoutes {

    private static final Logger LOG = LoggerFactory.getLogger(SlackRoutes.class);
    /** Slack's events are a few KB; an interaction with its message's blocks stays well below this. */
    static final long MAX_BODY = 1024 * 1024;

    private final Vertx vertx;
    private final List<SlackAppRuntime> apps;
    private final Clock clock;

    SlackRoutes(Vertx vertx, List<SlackAppRuntime> apps, Clock clock) {
        this.vertx = vertx;
        this.apps = apps;
        this.clock = clock;
    }

    private static final String RAW_BODY = "slack.rawBody";

    /**
     * Reads the body's bytes, at most {@link #MAX_BODY} (413 beyond), as they are. Not Vert.x's body handler: for a
     * form (an interaction is {@code payload=<url-encoded JSON>}) it runs the form decoder before the signature is
     * checked, which refuses a field over 8 KB (a button press on a message with blocks is larger) and answers an
     * unsigned request with bad url-encoding 400 instead of 401.
     */
    public static void rawBody(RoutingContext ctx) {
        io.vertx.core.http.HttpServerRequest request = ctx.request();
        String length = request.getHeader("Content-Length");
        if (length != null && length.matches("\\d{1,18}") && Long.parseLong(length) > MAX_BODY) {
            ctx.fail(413);
            return;
        }
        if (request.isEnded()) {
            ctx.put(RAW_BODY, new byte[0]);
            ctx.next();
            return;
        }
        io.vertx.core.buffer.Buffer body = io.vertx.core.buffer.Buffer.buffer();
        boolean[] failed = {false};
        request.handler(chunk -> {
            if (failed[0]) {
                return;
            }
            if (body.length() + chunk.length() > MAX_BODY) {
                failed[0] = true;
                ctx.fail(413);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.exceptionHandler(e -> {
            if (!failed[0]) {
                failed[0] = true;
                ctx.fail(e);
            }
        });
        request.endHandler(v -> {
            if (!failed[0]) {
                ctx.put(RAW_BODY, body.getBytes());
                ctx.next();
            }
        });
        request.resume();
    }

    /** The app whose signing secret verifies the request; null after answering 401. */
    private SlackAppRuntime verified(RoutingContext ctx, byte[] raw) {
        String ts = ctx.request().getHeader("X-Slack-Request-Timestamp");
        String sig = ctx.request().getHeader("X-Slack-Signature");
        String problem = null;
        for (SlackAppRuntime app : apps) {
            problem = app.signature.problem(ts, sig, raw, clock.instant());
            if (problem == null) {
                return app;
            }
        }
        LOG.debug("slack: refused a request to {}: {}", ctx.request().path(), problem);
        JsonHttp.error(ctx.response(), 401, problem, null);
        return null;
    }

    /** {@code POST /slack/events}, after {@link #rawBody}. */
    public void events(RoutingContext ctx) {
        byte[] raw = ctx.get(RAW_BODY);
        SlackAppRuntime app = verified(ctx, raw);
        if (app == null) {
            return;
        }
        String body = new String(raw, StandardCharsets.UTF_8);
        JsonObject envelope;
        try {
            envelope = new JsonObject(body);
        } catch (DecodeException | ClassCastException e) {
            JsonHttp.error(ctx.response(), 400, "the body is not a JSON object", null);
            return;
        }
        String type = envelope.getValue("type") instanceof String s ? s : "";
        switch (type) {
            case "url_verification" -> {
                Object challenge = envelope.getValue("challenge");
                if (!(challenge instanceof String c)) {
                    JsonHttp.error(ctx.response(), 400, "url_verification without a challenge", "challenge");
                    return;
                }
                ctx.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("challenge", c).encode());
            }
            case "event_callback" -> {
                if (!(envelope.getValue("event_id") instanceof String eventId) || eventId.isBlank()
                        || !(envelope.getValue("event") instanceof JsonObject)) {
                    JsonHttp.error(ctx.response(), 400, "event_callback without event_id or event", "event_id");
                    return;
                }
                String retry = ctx.request().getHeader("X-Slack-Retry-Num");
                JsonHttp.blocking(vertx, () -> app.receive(eventId, body, envelope), fresh -> {
                    if (!fresh) {
                        LOG.debug("slack {}: event {} seen before (retry {}): acknowledged, not handled again",
                                app.app.name(), eventId, retry);
                    }
                    ctx.response().setStatusCode(200).end();
                }, e -> {
                    // not written, so not acknowledged: Slack delivers it again
                    LOG.error("slack {}: event {} could not be recorded: {}", app.app.name(), eventId, e.toString());
                    JsonHttp.error(ctx.response(), 503, "the event could not be recorded; deliver it again", null);
                });
            }
            default -> ctx.response().setStatusCode(200).end(); // app_rate_limited and other notices: nothing to do
        }
    }

    /** {@code POST /slack/interactions}, after {@link #rawBody}. */
    public void interactions(RoutingContext ctx) {
        byte[] raw = ctx.get(RAW_BODY);
        SlackAppRuntime app = verified(ctx, raw);
        if (app == null) {
            return;
        }
        String payload = null;
        for (String pair : new String(raw, StandardCharsets.UTF_8).split("&")) {
            if (pair.startsWith("payload=")) {
                try {
                    payload = URLDecoder.decode(pair.substring("payload=".length()), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    payload = null; // a broken %-escape: not a payload (a 400 below), not a failure of ours
                }
            }
        }
        JsonObject json;
        try {
            json = payload == null ? null : new JsonObject(payload);
        } catch (DecodeException | ClassCastException e) {
            json = null;
        }
        if (json == null) {
            JsonHttp.error(ctx.response(), 400, "the body must be a form with a JSON payload field", "payload");
            return;
        }
        ctx.response().setStatusCode(200).end();
        app.interaction(json);
    }
}
