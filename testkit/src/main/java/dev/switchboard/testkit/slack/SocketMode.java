package dev.switchboard.testkit.slack;

import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.internal.http.WebSocketInternal;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slack's Socket Mode server: says hello to each connection, pushes envelopes to the newest open connection (queues
 * them while none is open, as Slack holds events for a reconnecting app), records the client's acks, and can drop
 * the connection or ask the client to refresh it.
 */
final class SocketMode {

    private static final Logger LOG = LoggerFactory.getLogger(SocketMode.class);

    private final FakeSlackOptions options;
    private final List<ServerWebSocket> open = new ArrayList<>();
    private final Map<String, JsonObject> envelopes = new LinkedHashMap<>();
    private final List<String> pending = new ArrayList<>();
    private final Set<String> acked = new LinkedHashSet<>();
    private final List<JsonObject> acks = new ArrayList<>();
    private int connections;

    SocketMode(FakeSlackOptions options) {
        this.options = options;
    }

    void accept(ServerWebSocket ws) {
        List<String> toSend;
        synchronized (this) {
            connections++;
            open.add(ws);
            toSend = new ArrayList<>(pending);
            pending.clear();
        }
        ws.closeHandler(v -> closed(ws));
        ws.textMessageHandler(text -> received(text));
        ws.exceptionHandler(e -> LOG.debug("socket mode connection failed: {}", e.toString()));
        ws.writeTextMessage(hello().encode());
        for (String id : toSend) {
            send(ws, id);
        }
    }

    private JsonObject hello() {
        return new JsonObject()
                .put("type", "hello")
                .put("num_connections", openCount())
                .put("debug_info", new JsonObject()
                        .put("host", "applink-fake-1")
                        .put("build_number", 1)
                        .put("approximate_connection_time", 18060))
                .put("connection_info", new JsonObject().put("app_id", options.appId()));
    }

    private synchronized int openCount() {
        return open.size();
    }

    private synchronized void closed(ServerWebSocket ws) {
        open.remove(ws);
    }

    private void received(String text) {
        JsonObject message;
        try {
            message = new JsonObject(text);
        } catch (DecodeException e) {
            LOG.debug("socket mode client sent non-JSON: {}", text);
            return;
        }
        String id = message.getString("envelope_id");
        if (id != null) {
            synchronized (this) {
                acked.add(id);
                acks.add(message);
            }
        }
    }

    /** Pushes an envelope of {@code type} around {@code payload}; returns its envelope id. */
    String push(String type, JsonObject payload) {
        String id;
        synchronized (this) {
            id = UUID.randomUUID().toString();
            envelopes.put(id, new JsonObject()
                    .put("envelope_id", id)
                    .put("payload", payload)
                    .put("type", type)
                    .put("accepts_response_payload", "interactive".equals(type))
                    .put("retry_attempt", 0)
                    .put("retry_reason", ""));
        }
        sendOrQueue(id);
        return id;
    }

    /** Resends every unacked envelope as attempt {@code retryAttempt}; returns their ids. */
    List<String> redeliverUnacked(int retryAttempt) {
        List<String> ids = new ArrayList<>();
        synchronized (this) {
            envelopes.forEach((id, envelope) -> {
                if (!acked.contains(id)) {
                    envelope.put("retry_attempt", retryAttempt).put("retry_reason", "timeout");
                    ids.add(id);
                }
            });
        }
        ids.forEach(this::sendOrQueue);
        return ids;
    }

    private void sendOrQueue(String id) {
        ServerWebSocket ws;
        synchronized (this) {
            ws = current();
            if (ws == null) {
                if (!pending.contains(id)) {
                    pending.add(id);
                }
                return;
            }
        }
        send(ws, id);
    }

    private void send(ServerWebSocket ws, String id) {
        String text;
        synchronized (this) {
            text = envelopes.get(id).encode();
        }
        ws.writeTextMessage(text).onFailure(e -> {
            synchronized (this) {
                pending.add(id);
            }
        });
    }

    private ServerWebSocket current() {
        return open.isEmpty() ? null : open.get(open.size() - 1);
    }

    /** Closes the current connection abruptly: the TCP connection goes, no close frame. */
    void drop() {
        ServerWebSocket ws;
        synchronized (this) {
            ws = current();
            if (ws != null) {
                open.remove(ws);
            }
        }
        if (ws instanceof WebSocketInternal internal) {
            internal.channelHandlerContext().channel().close();
        } else if (ws != null) {
            ws.close((short) 1011, "dropped");
        }
    }

    /** Asks the client to reconnect, as Slack does every few hours. */
    void requestRefresh() {
        ServerWebSocket ws;
        synchronized (this) {
            ws = current();
        }
        if (ws != null) {
            ws.writeTextMessage(new JsonObject()
                    .put("type", "disconnect")
                    .put("reason", "refresh_requested")
                    .put("debug_info", new JsonObject().put("host", "applink-fake-1"))
                    .encode());
        }
    }

    synchronized boolean acked(String envelopeId) {
        return acked.contains(envelopeId);
    }

    synchronized List<JsonObject> acks() {
        return acks.stream().map(JsonObject::copy).toList();
    }

    synchronized int connections() {
        return connections;
    }

    synchronized boolean connected() {
        return !open.isEmpty();
    }

    synchronized List<JsonObject> envelopes() {
        return envelopes.values().stream().map(JsonObject::copy).toList();
    }
}
