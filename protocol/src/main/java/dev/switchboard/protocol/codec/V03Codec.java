package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.SendMessageConfiguration;
import dev.switchboard.protocol.model.SendMessageResult;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;

/**
 * A2A 0.3 JSON-RPC: {@code kind} on every Task, Message, Part and update event; kebab-case enums;
 * file parts nested under {@code file}; results and events bare. Lossy by the 0.3 shapes: a text or
 * data part's mediaType/filename has no 0.3 field and is dropped, and a data part whose value is
 * not an object is written as {@code {"value": x}} (0.3 DataPart.data must be an object).
 */
final class V03Codec extends ModelCodec {

    static final WireCodec INSTANCE = new V03Codec();

    private V03Codec() {}

    @Override
    public ProtocolVersion version() {
        return ProtocolVersion.V0_3;
    }

    @Override
    ObjectNode start(String kind) {
        ObjectNode o = Json.object();
        o.put("kind", kind);
        return o;
    }

    @Override
    String stateName(TaskState state) {
        return Enums.v03(state);
    }

    @Override
    String roleName(Role role) {
        return Enums.v03(role);
    }

    @Override
    ObjectNode writePart(Part part) {
        ObjectNode o;
        if (part instanceof Part.Text t) {
            o = start("text");
            o.put("text", t.text());
        } else if (part instanceof Part.Data d) {
            o = start("data");
            o.set("data", d.data() != null && d.data().isObject() ? d.data() : Json.object().set("value", d.data()));
        } else {
            o = start("file");
            ObjectNode file = o.putObject("file");
            if (part instanceof Part.Raw r) {
                file.put("bytes", base64(r.bytes()));
            } else {
                file.put("uri", ((Part.Url) part).url());
            }
            putString(file, "name", part.filename());
            putString(file, "mimeType", part.mediaType());
        }
        putObject(o, "metadata", part.metadata());
        return o;
    }

    /** 0.3 requires final on every status update. */
    @Override
    void writeFinal(ObjectNode event, boolean isFinal) {
        event.put("final", isFinal);
    }

    @Override
    boolean readFinal(ObjectNode event, String path) {
        return Fields.flag(event, "final", path);
    }

    @Override
    void writeWaitAndPush(ObjectNode configuration, SendMessageConfiguration c) {
        if (c.pushNotificationConfig() != null) {
            configuration.set("pushNotificationConfig", PushConfigs.to03(c.pushNotificationConfig()));
        }
        if (c.returnImmediately() != null) {
            configuration.put("blocking", !c.returnImmediately());
        }
    }

    /** 0.3 has no tenant. */
    @Override
    void writeTenant(ObjectNode params, String tenant) {}

    // ---- bare objects told apart by kind

    @Override
    public JsonNode writeSendResult(SendMessageResult result) {
        return result instanceof Task t ? writeTask(t) : writeMessage((Message) result);
    }

    @Override
    public SendMessageResult readSendResult(JsonNode result) {
        ObjectNode o = Fields.object(result, "result");
        String kind = Fields.requiredString(o, "kind", "result");
        switch (kind) {
            case "task":
                return readTask(o, "result");
            case "message":
                return readMessage(o, "result");
            default:
                throw new A2aFormatException("result.kind: expected task or message, got '" + kind + "'");
        }
    }

    @Override
    public JsonNode writeStreamEvent(StreamEvent event) {
        if (event instanceof Task t) {
            return writeTask(t);
        }
        if (event instanceof Message m) {
            return writeMessage(m);
        }
        if (event instanceof TaskStatusUpdateEvent s) {
            return writeStatusUpdate(s);
        }
        return writeArtifactUpdate((TaskArtifactUpdateEvent) event);
    }

    @Override
    public StreamEvent readStreamEvent(JsonNode result) {
        ObjectNode o = Fields.object(result, "result");
        String kind = Fields.requiredString(o, "kind", "result");
        switch (kind) {
            case "task":
                return readTask(o, "result");
            case "message":
                return readMessage(o, "result");
            case "status-update":
                return readStatusUpdate(o, "result");
            case "artifact-update":
                return readArtifactUpdate(o, "result");
            default:
                throw new A2aFormatException(
                        "result.kind: expected task, message, status-update or artifact-update, got '" + kind + "'");
        }
    }

    // ---- ListTasks does not exist in 0.3 JSON-RPC

    @Override
    public JsonNode writeListTasksParams(ListTasksParams params) {
        throw noListTasks();
    }

    @Override
    public ListTasksParams readListTasksParams(JsonNode params) {
        throw noListTasks();
    }

    @Override
    public JsonNode writeListTasksResult(ListTasksResult result) {
        throw noListTasks();
    }

    @Override
    public ListTasksResult readListTasksResult(JsonNode result) {
        throw noListTasks();
    }

    private static UnsupportedOperationException noListTasks() {
        return new UnsupportedOperationException("A2A 0.3 JSON-RPC has no ListTasks");
    }

    // ---- errors

    /** 0.3 data is any value and is written as given. */
    @Override
    public JsonNode writeError(JsonRpcError error) {
        ObjectNode o = Json.object();
        o.put("code", error.code());
        o.put("message", error.message() == null ? "" : error.message());
        putObject(o, "data", error.data());
        return o;
    }
}
