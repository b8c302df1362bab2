package dev.switchboard.gateway.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;

/** JSON-RPC request bodies for tests, in the A2A 0.3 and 1.0 shapes the testkit agent reads. */
public final class Rpc {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Rpc() {}

    /** 0.3 {@code message/send} or {@code message/stream} with one text part. */
    public static ObjectNode send03(Object id, String method, String text) {
        ObjectNode req = envelope(id, method);
        ObjectNode message = req.putObject("params").putObject("message");
        message.put("kind", "message").put("messageId", "m-" + UUID.randomUUID()).put("role", "user");
        message.putArray("parts").addObject().put("kind", "text").put("text", text);
        return req;
    }

    /** 1.0 {@code SendMessage} or {@code SendStreamingMessage} with one text part (send it with A2A-Version: 1.0). */
    public static ObjectNode send10(Object id, String method, String text) {
        ObjectNode req = envelope(id, method);
        ObjectNode message = req.putObject("params").putObject("message");
        message.put("messageId", "m-" + UUID.randomUUID()).put("role", "ROLE_USER");
        message.putArray("parts").addObject().put("text", text);
        return req;
    }

    public static String send(Object id, String text) {
        return send03(id, "message/send", text).toString();
    }

    public static String stream(Object id, String text) {
        return send03(id, "message/stream", text).toString();
    }

    /** {@code message/send} with {@code params.configuration.timeout}. */
    public static String sendWithTimeout(Object id, String text, Number timeoutSeconds) {
        ObjectNode req = send03(id, "message/send", text);
        ((ObjectNode) req.get("params")).putObject("configuration").putPOJO("timeout", timeoutSeconds);
        return req.toString();
    }

    public static ObjectNode envelope(Object id, String method) {
        ObjectNode req = JSON.createObjectNode();
        req.put("jsonrpc", "2.0");
        if (id instanceof Number n) {
            req.put("id", n.longValue());
        } else if (id != null) {
            req.put("id", id.toString());
        }
        req.put("method", method);
        return req;
    }
}
