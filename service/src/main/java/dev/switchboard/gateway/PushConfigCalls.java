package dev.switchboard.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.push.PushConfig;
import dev.switchboard.push.PushStore;
import dev.switchboard.registry.EgressPolicy;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * G14: push notification configs through the gateway, both versions. A caller's config (its URL, token and
 * credentials) is kept in the store; the agent is sent the same call with the gateway's callback URL
 * ({@code /a2a/{agentId}/push/{callbackId}}) and a secret of the config's own as its token, and its answer goes back
 * to the caller with the caller's URL, token and credentials in place. Get and list are answered from the store (a
 * caller sees only its own configs; when it has none there, the agent is asked too, for its "push not supported"
 * alone); delete removes the caller's config and is sent on to the agent.
 */
public final class PushConfigCalls {

    /** A push config call's body, at most. */
    static final int MAX_CONFIG_BYTES = 16 * 1024;
    /** Configs per task and caller. */
    static final int MAX_PER_TASK = 10;
    private static final int MAX_FIELD = 2048;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What the gateway does with the call in the end. */
    interface Outcome {
        /** Sends {@code body} to the agent; its 2xx reply passes {@code reply} on its way back. */
        void forward(Buffer body, UnaryOperator<Buffer> reply);

        /** Answers the caller with a JSON-RPC result, the agent not contacted. */
        void answer(JsonNode result);

        /** Answers the caller with a JSON-RPC error. */
        void refuse(int code, String message);
    }

    private final Vertx vertx;
    private final PushStore store;
    private final EgressPolicy policy;

    public PushConfigCalls(Vertx vertx, PushStore store, EgressPolicy policy) {
        this.vertx = vertx;
        this.store = store;
        this.policy = policy;
    }

    /** On every call: a substring test first, so other methods cost no enum walk (and no Optional). */
    static boolean handles(String method) {
        return method.contains("ushNotificationConfig") && A2aMethod.fromName(method).filter(m -> m == A2aMethod.CREATE_PUSH_CONFIG || m == A2aMethod.GET_PUSH_CONFIG
                || m == A2aMethod.LIST_PUSH_CONFIGS || m == A2aMethod.DELETE_PUSH_CONFIG).isPresent();
    }

    /** Handles one call; {@code base} is the gateway's URL as the agent reaches it. Runs on the caller's context. */
    void handle(String agentId, String callerId, String method, Buffer body, String base, Outcome outcome) {
        if (body.length() > MAX_CONFIG_BYTES) {
            outcome.refuse(JsonRpcError.INVALID_PARAMS, "invalid params: push config too large: " + body.length()
                    + " bytes, at most " + MAX_CONFIG_BYTES);
            return;
        }
        ObjectNode request;
        try {
            request = (ObjectNode) JSON.readTree(body.getBytes());
        } catch (IOException | ClassCastException e) {
            outcome.refuse(JsonRpcError.INVALID_PARAMS, "invalid params: not a JSON-RPC request object");
            return;
        }
        A2aMethod m = A2aMethod.fromName(method).orElseThrow();
        boolean v10 = method.equals(m.v10Name());
        JsonNode params = request.path("params");
        // 1.0 names the task taskId everywhere; 0.3 only in set (get, list and delete call it id)
        String taskField = v10 || m == A2aMethod.CREATE_PUSH_CONFIG ? "taskId" : "id";
        String taskId = text(params, taskField);
        if (taskId == null) {
            outcome.refuse(JsonRpcError.INVALID_PARAMS, "invalid params: params." + taskField + " (the task) is required");
            return;
        }
        Context context = vertx.getOrCreateContext();
        switch (m) {
            case CREATE_PUSH_CONFIG -> create(agentId, callerId, v10, request, taskId, base, context, outcome);
            case GET_PUSH_CONFIG -> {
                String configId = text(params, v10 ? "id" : "pushNotificationConfigId");
                blocking(context, outcome, () -> {
                    Optional<PushConfig> c = configId == null ? store.list(agentId, taskId).stream()
                            .filter(p -> p.callerId().equals(callerId)).findFirst() : store.find(agentId, taskId, configId)
                            .filter(p -> p.callerId().equals(callerId));
                    ObjectNode none = reply(request.get("id")).set("error", NODES.objectNode()
                            .put("code", JsonRpcError.INVALID_PARAMS).put("message", "invalid params: no push config "
                                    + (configId == null ? "" : "'" + configId + "' ") + "of task " + taskId));
                    return c.<Runnable>map(p -> () -> outcome.answer(shape(p, v10)))
                            .orElse(() -> outcome.forward(body, agents -> unlessNotSupported(agents, none)));
                });
            }
            case LIST_PUSH_CONFIGS -> blocking(context, outcome, () -> {
                ArrayNode configs = NODES.arrayNode();
                store.list(agentId, taskId).stream().filter(p -> p.callerId().equals(callerId))
                        .forEach(p -> configs.add(shape(p, v10)));
                JsonNode result = v10 ? NODES.objectNode().<ObjectNode>set("configs", configs).put("nextPageToken", "")
                        : configs;
                if (configs.isEmpty()) {
                    ObjectNode empty = reply(request.get("id")).set("result", result);
                    return () -> outcome.forward(body, agents -> unlessNotSupported(agents, empty));
                }
                return () -> outcome.answer(result);
            });
            default -> {
                String configId = text(params, v10 ? "id" : "pushNotificationConfigId");
                blocking(context, outcome, () -> {
                    Optional<PushConfig> found = configId == null ? Optional.empty() : store.find(agentId, taskId, configId);
                    if (found.isPresent() && !found.get().callerId().equals(callerId)) {
                        // another caller's config (A2A §13.1): neither removed here nor sent on for the agent to remove
                        return () -> outcome.refuse(JsonRpcError.TASK_NOT_FOUND, "no push config '" + configId
                                + "' of task " + taskId);
                    }
                    found.ifPresent(p -> store.delete(agentId, taskId, configId));
                    return () -> outcome.forward(body, r -> r);
                });
            }
        }
    }

    private void create(String agentId, String callerId, boolean v10, ObjectNode request, String taskId, String base,
            Context context, Outcome outcome) {
        ObjectNode params = (ObjectNode) request.get("params");
        JsonNode given = v10 ? params : params.path("pushNotificationConfig");
        if (!given.isObject()) {
            outcome.refuse(JsonRpcError.INVALID_PARAMS, "invalid params: params.pushNotificationConfig is required");
            return;
        }
        ObjectNode config = (ObjectNode) given;
        String where = v10 ? "params." : "params.pushNotificationConfig.";
        String url = text(config, "url");
        Optional<String> problem = url == null ? Optional.of("is required") : policy.problemWithUrl(url);
        if (problem.isPresent()) {
            outcome.refuse(JsonRpcError.INVALID_PARAMS, "invalid params: " + where + "url " + problem.get());
            return;
        }
        String token = text(config, "token");
        JsonNode auth = config.get("authentication");
        for (String value : new String[] {token, auth == null ? null : auth.path("credentials").asText(null), url}) {
            if (value != null && (value.length() > MAX_FIELD || !value.chars().allMatch(c -> c >= 0x20 && c < 0x7f))) {
                outcome.refuse(JsonRpcError.INVALID_PARAMS, "invalid params: " + where + "url, token and credentials "
                        + "must be printable ASCII of at most " + MAX_FIELD + " characters");
                return;
            }
        }
        String configId = Optional.ofNullable(text(config, "id")).orElse(UUID.randomUUID().toString());
        byte[] secretBytes = new byte[32];
        RANDOM.nextBytes(secretBytes);
        PushConfig kept = new PushConfig(UUID.randomUUID().toString(), agentId, taskId, configId, callerId,
                v10 ? "1.0" : "0.3", url, token, auth == null || auth.isNull() ? null : auth.toString(),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secretBytes), System.currentTimeMillis());
        // the agent gets the gateway's URL and the config's secret; never the caller's URL, token or credentials
        config.put("id", configId);
        config.put("url", base + "/a2a/" + agentId + "/push/" + kept.callbackId());
        config.put("token", kept.secret());
        config.remove("authentication");
        Buffer toAgent = Buffer.buffer(request.toString());
        blocking(context, outcome, () -> {
            long mine = store.list(agentId, taskId).stream().filter(p -> p.callerId().equals(callerId)
                    && !p.configId().equals(configId)).count();
            if (mine >= MAX_PER_TASK) {
                return () -> outcome.refuse(JsonRpcError.INVALID_PARAMS, "invalid params: task " + taskId
                        + " has its maximum of " + MAX_PER_TASK + " push configs; delete one first");
            }
            store.save(kept);
            return () -> outcome.forward(toAgent, reply -> callersView(reply, kept, v10, request.get("id")));
        });
    }

    /** The agent's answer to a create, with the caller's URL, token and credentials in place of the gateway's. */
    private Buffer callersView(Buffer reply, PushConfig kept, boolean v10, JsonNode id) {
        try {
            JsonNode answer = JSON.readTree(reply.getBytes());
            if (!answer.path("result").isObject()) {
                // an error (the agent takes no push configs, say): the config is forgotten again
                vertx.executeBlocking(() -> store.delete(kept.agentId(), kept.taskId(), kept.configId()), false);
                return reply;
            }
            ((ObjectNode) answer).set("result", shape(kept, v10));
            return Buffer.buffer(answer.toString());
        } catch (IOException e) {
            // not a JSON-RPC reply (an event stream, say): nothing of it reaches the caller, the config is forgotten
            vertx.executeBlocking(() -> store.delete(kept.agentId(), kept.taskId(), kept.configId()), false);
            ObjectNode refused = reply(id);
            refused.set("error", NODES.objectNode().put("code", JsonRpcError.INTERNAL_ERROR)
                    .put("message", "agent error: " + kept.agentId() + " did not answer the push config call with a "
                            + "JSON-RPC reply"));
            return Buffer.buffer(refused.toString());
        }
    }

    /**
     * The answer to a get or list for which nothing of the caller's is kept: the agent was asked the same (A2A
     * §3.3.4: an agent without push notifications MUST answer PushNotificationNotSupportedError to get and list too),
     * and only that error of its reply reaches the caller; anything else it answered (which may name other callers'
     * configs, with the gateway's callback secrets) is replaced by the gateway's own answer, {@code own}.
     */
    static Buffer unlessNotSupported(Buffer agents, ObjectNode own) {
        try {
            JsonNode reply = JSON.readTree(agents.getBytes());
            if (reply.path("error").path("code").asInt() == JsonRpcError.PUSH_NOTIFICATION_NOT_SUPPORTED) {
                return agents;
            }
        } catch (IOException e) {
            // not JSON: the gateway's own answer
        }
        return Buffer.buffer(own.toString());
    }

    private static ObjectNode reply(JsonNode id) {
        ObjectNode r = NODES.objectNode().put("jsonrpc", "2.0");
        r.set("id", id == null ? NODES.nullNode() : id);
        return r;
    }

    /** A kept config as the caller set it: 1.0's flat TaskPushNotificationConfig, or 0.3's nested one. */
    static JsonNode shape(PushConfig p, boolean v10) {
        ObjectNode config = NODES.objectNode();
        config.put("id", p.configId()).put("url", p.url());
        if (p.token() != null) {
            config.put("token", p.token());
        }
        if (p.authJson() != null) {
            try {
                config.set("authentication", JSON.readTree(p.authJson()));
            } catch (IOException e) {
                // kept as the caller sent it: always JSON
            }
        }
        if (v10) {
            config.put("taskId", p.taskId());
            return config;
        }
        return NODES.objectNode().put("taskId", p.taskId()).set("pushNotificationConfig", config);
    }

    /** Runs store work on a worker; what it returns runs back on the caller's context. */
    private void blocking(Context context, Outcome outcome, java.util.concurrent.Callable<Runnable> work) {
        vertx.executeBlocking(work, false).onComplete(ar -> context.runOnContext(v -> {
            if (ar.succeeded()) {
                ar.result().run();
            } else {
                outcome.refuse(JsonRpcError.INTERNAL_ERROR, "push configs are not available: the store failed");
            }
        }));
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isTextual() && !v.asText().isEmpty() ? v.asText() : null;
    }

}
