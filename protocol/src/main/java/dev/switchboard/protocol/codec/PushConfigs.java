package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import java.util.Map;

/**
 * Push notification configs in either version's shape, converted to the other. 0.3 nests the config
 * ({@code {"taskId","pushNotificationConfig":{url,token,authentication:{schemes[],credentials}}}});
 * 1.0 is flat ({@code {taskId,id,url,token,authentication:{scheme,credentials},tenant}}).
 * 1.0 allows one auth scheme, so 0.3 → 1.0 keeps the first of {@code schemes}. Members these
 * methods do not know are copied unchanged.
 */
public final class PushConfigs {

    private PushConfigs() {}

    /** Any config shape (0.3 nested TaskPushNotificationConfig, 0.3 PushNotificationConfig, 1.0 flat) → 1.0 flat. */
    public static ObjectNode to10(JsonNode config) {
        ObjectNode out = flatten(config);
        JsonNode auth = out.get("authentication");
        if (auth != null) {
            out.set("authentication", authTo10(auth));
        }
        return out;
    }

    /** Any config shape → 0.3 PushNotificationConfig (the object inside send configuration); taskId and tenant dropped. */
    public static ObjectNode to03(JsonNode config) {
        ObjectNode out = flatten(config);
        out.remove("taskId");
        out.remove("tenant");
        JsonNode auth = out.get("authentication");
        if (auth != null) {
            out.set("authentication", authTo03(auth));
        }
        return out;
    }

    /** Any config shape → 0.3 TaskPushNotificationConfig {@code {taskId, pushNotificationConfig}}. */
    public static ObjectNode taskConfigTo03(JsonNode config) {
        ObjectNode out = Json.object();
        JsonNode taskId = Fields.get(flatten(config), "taskId");
        if (taskId != null) {
            out.set("taskId", taskId);
        }
        out.set("pushNotificationConfig", to03(config));
        return out;
    }

    /** The 0.3 nested config merged into its parent; a flat config is copied as it is. */
    private static ObjectNode flatten(JsonNode config) {
        ObjectNode in = Fields.object(config, "pushNotificationConfig");
        ObjectNode out = Json.object();
        JsonNode nested = Fields.get(in, "pushNotificationConfig");
        for (Map.Entry<String, JsonNode> e : in.properties()) {
            if (!e.getKey().equals("pushNotificationConfig") && !e.getKey().equals("push_notification_config")) {
                out.set(e.getKey(), e.getValue());
            }
        }
        if (nested != null) {
            Fields.object(nested, "pushNotificationConfig.pushNotificationConfig").properties()
                    .forEach(e -> out.set(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** 0.3 get/delete params {@code {id: taskId, pushNotificationConfigId}} → 1.0 {@code {taskId, id}}. */
    public static ObjectNode refTo10(JsonNode params) {
        ObjectNode in = Fields.object(params, "params");
        ObjectNode out = Json.object();
        copy(in, "id", out, "taskId");
        copy(in, "pushNotificationConfigId", out, "id");
        return out;
    }

    /** 1.0 get/delete params {@code {taskId, id, tenant}} → 0.3 {@code {id: taskId, pushNotificationConfigId}}. */
    public static ObjectNode refTo03(JsonNode params) {
        ObjectNode in = Fields.object(params, "params");
        ObjectNode out = Json.object();
        copy(in, "taskId", out, "id");
        copy(in, "id", out, "pushNotificationConfigId");
        return out;
    }

    /** 0.3 list params {@code {id: taskId}} → 1.0 {@code {taskId}}. */
    public static ObjectNode listParamsTo10(JsonNode params) {
        ObjectNode out = Json.object();
        copy(Fields.object(params, "params"), "id", out, "taskId");
        return out;
    }

    /** 1.0 list params → 0.3 {@code {id: taskId}}; 0.3 has no paging, so pageSize and pageToken are dropped. */
    public static ObjectNode listParamsTo03(JsonNode params) {
        ObjectNode out = Json.object();
        copy(Fields.object(params, "params"), "taskId", out, "id");
        return out;
    }

    /** 0.3 list result (a bare array) → 1.0 {@code {configs, nextPageToken:""}}. */
    public static ObjectNode listResultTo10(JsonNode result) {
        ObjectNode out = Json.object();
        ArrayNode configs = out.putArray("configs");
        if (result != null && result.isArray()) {
            result.forEach(c -> configs.add(to10(c)));
        } else if (result != null && !result.isNull()) {
            throw new A2aFormatException("result: expected an array of push configs, got " + Fields.describe(result));
        }
        out.put("nextPageToken", "");
        return out;
    }

    /** 1.0 list result → 0.3 bare array; a nextPageToken (further pages) cannot be expressed in 0.3. */
    public static ArrayNode listResultTo03(JsonNode result) {
        ObjectNode in = Fields.object(result, "result");
        ArrayNode out = Json.mapper().createArrayNode();
        JsonNode configs = Fields.get(in, "configs");
        if (configs != null) {
            configs.forEach(c -> out.add(taskConfigTo03(c)));
        }
        return out;
    }

    private static void copy(ObjectNode from, String fromName, ObjectNode to, String toName) {
        JsonNode v = Fields.get(from, fromName);
        if (v != null) {
            to.set(toName, v);
        }
    }

    private static JsonNode authTo10(JsonNode auth) {
        ObjectNode in = Fields.object(auth, "pushNotificationConfig.authentication");
        JsonNode schemes = in.get("schemes");
        if (schemes == null) {
            return in;
        }
        ObjectNode out = in.deepCopy();
        out.remove("schemes");
        if (schemes.isArray() && !schemes.isEmpty()) {
            out.set("scheme", schemes.get(0));
        }
        return reorder(out, "scheme");
    }

    private static JsonNode authTo03(JsonNode auth) {
        ObjectNode in = Fields.object(auth, "pushNotificationConfig.authentication");
        JsonNode scheme = in.get("scheme");
        if (scheme == null) {
            return in;
        }
        ObjectNode out = in.deepCopy();
        out.remove("scheme");
        ArrayNode schemes = Json.mapper().createArrayNode().add(scheme);
        out.set("schemes", schemes);
        return reorder(out, "schemes");
    }

    /** Moves {@code first} to the front, so the converted object reads like the SDKs' output. */
    private static ObjectNode reorder(ObjectNode node, String first) {
        ObjectNode out = Json.object();
        out.set(first, node.get(first));
        node.properties().forEach(e -> {
            if (!e.getKey().equals(first)) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }
}
