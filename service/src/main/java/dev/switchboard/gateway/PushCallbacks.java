package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.push.PushConfig;
import dev.switchboard.push.PushDelivery;
import dev.switchboard.push.PushSettings;
import dev.switchboard.push.PushStore;
import dev.switchboard.tracing.Tracing;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * G14: {@code POST /a2a/{agentId}/push/{callbackId}}, where agents send the notifications of configs set through the
 * gateway. The agent must send the config's secret in {@code X-A2A-Notification-Token} (compared in constant time);
 * anything else is refused 401 and nothing is kept. An accepted notification is kept in the outbox (a restart loses
 * none; the same body twice is kept once) and answered 200; {@link PushDelivery} takes it to the caller's URL.
 */
public final class PushCallbacks {

    static final String TOKEN_HEADER = "X-A2A-Notification-Token";
    /** The span of a callback, its route as its name. */
    static final String SPAN = "POST /a2a/{agentId}/push/{callbackId}";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REFUSED = "{\"error\":\"unknown callback or wrong X-A2A-Notification-Token\"}";

    private final Vertx vertx;
    private final PushStore store;
    private final PushDelivery delivery;
    private final PushSettings settings;
    private final Tracing tracing;

    public PushCallbacks(Vertx vertx, PushStore store, PushDelivery delivery, PushSettings settings, Tracing tracing) {
        this.tracing = tracing;
        this.vertx = vertx;
        this.store = store;
        this.delivery = delivery;
        this.settings = settings;
    }

    void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String agentId = ctx.pathParam("agentId");
        String callbackId = ctx.pathParam("callbackId");
        GatewaySpan span = GatewaySpan.start(tracing, request, SPAN);
        request.response().endHandler(v -> span.end(agentId, null, outcome(request.response().getStatusCode()),
                request.response().getStatusCode()));
        String token = request.getHeader(TOKEN_HEADER);
        long declared = dev.switchboard.http.ContentLength.of(request.getHeader("Content-Length"));
        if (declared > settings.maxBodyBytes()) {
            answer(request, 413, "{\"error\":\"notification larger than " + settings.maxBodyBytes() + " bytes\"}");
            return;
        }
        request.pause();
        vertx.executeBlocking(() -> store.byCallback(callbackId), false).onComplete(found -> {
            Optional<PushConfig> config = found.succeeded() ? found.result() : Optional.empty();
            if (config.isEmpty() || !config.get().agentId().equals(agentId) || !matches(config.get().secret(), token)) {
                answer(request, 401, REFUSED);
                return;
            }
            readAndKeep(request, config.get());
        });
    }

    private void readAndKeep(HttpServerRequest request, PushConfig config) {
        Buffer body = Buffer.buffer();
        boolean[] over = {false};
        request.handler(chunk -> {
            if (!over[0] && body.length() + chunk.length() > settings.maxBodyBytes()) {
                over[0] = true;
                answer(request, 413, "{\"error\":\"notification larger than " + settings.maxBodyBytes() + " bytes\"}");
            } else if (!over[0]) {
                body.appendBuffer(chunk);
            }
        });
        request.endHandler(v -> {
            if (over[0]) {
                return;
            }
            String text = body.toString(StandardCharsets.UTF_8);
            // the receiver's duty (A2A §4.3.3): a notification about another task than its config's is not delivered
            Optional<String> named = namedTask(text);
            if (named.isPresent() && !named.get().equals(config.taskId())) {
                answer(request, 400, "{\"error\":\"the notification names another task than this callback's config\"}");
                return;
            }
            String type = Optional.ofNullable(request.getHeader("Content-Type")).orElse("application/json");
            vertx.executeBlocking(() -> store.enqueue(config.callbackId(), text,
                    type.length() > 200 ? "application/json" : type, System.currentTimeMillis()), false)
                    .onComplete(kept -> {
                        if (kept.failed()) {
                            answer(request, 503, "{\"error\":\"the notification could not be kept; send it again\"}");
                            return;
                        }
                        answer(request, 200, "{}");
                        delivery.soon();
                    });
        });
        request.resume();
    }

    private static GatewayMetrics.Outcome outcome(int status) {
        return switch (status) {
            case 200 -> GatewayMetrics.Outcome.OK;
            case 401 -> GatewayMetrics.Outcome.UNAUTHORIZED;
            case 400 -> GatewayMetrics.Outcome.INVALID_REQUEST;
            case 413 -> GatewayMetrics.Outcome.TOO_LARGE;
            default -> GatewayMetrics.Outcome.BUSY;
        };
    }

    /**
     * The task a notification is about, when it names one: 1.0's StreamResponse ({@code task.id},
     * {@code statusUpdate.taskId}, {@code artifactUpdate.taskId}, {@code message.taskId}) or 0.3's bare Task or event.
     * A body that is not a JSON object names none and is passed on unchanged.
     */
    static Optional<String> namedTask(String body) {
        try {
            JsonNode n = JSON.readTree(body);
            if (n == null || !n.isObject()) {
                return Optional.empty();
            }
            JsonNode id = n.has("task") ? n.path("task").path("id")
                    : n.has("statusUpdate") ? n.path("statusUpdate").path("taskId")
                    : n.has("artifactUpdate") ? n.path("artifactUpdate").path("taskId")
                    : n.has("message") ? n.path("message").path("taskId")
                    : "task".equals(n.path("kind").asText()) ? n.path("id") : n.path("taskId");
            return id.isTextual() && !id.asText().isEmpty() ? Optional.of(id.asText()) : Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    static boolean matches(String secret, String token) {
        return token != null && MessageDigest.isEqual(secret.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    private static void answer(HttpServerRequest request, int status, String json) {
        if (!request.response().ended()) {
            if (status != 200 && !request.isEnded()) {
                // refused before its body was read: the connection goes, with the body nobody will read
                request.response().putHeader("Connection", "close");
            }
            request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(json);
        }
    }
}
