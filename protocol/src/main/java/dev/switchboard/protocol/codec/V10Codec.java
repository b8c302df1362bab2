package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.Optional;

/** A2A 1.0 ProtoJSON: no kind, proto enum names, flat parts, wrapped results and stream events. */
final class V10Codec extends ModelCodec {

    static final WireCodec INSTANCE = new V10Codec();

    private static final String ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";
    private static final String VALUE = "type.googleapis.com/google.protobuf.Value";
    private static final String[] STREAM_MEMBERS = {"task", "message", "statusUpdate", "artifactUpdate"};

    private V10Codec() {}

    @Override
    public ProtocolVersion version() {
        return ProtocolVersion.V1_0;
    }

    @Override
    ObjectNode start(String kind) {
        return Json.object();
    }

    @Override
    String stateName(TaskState state) {
        return Enums.v10(state);
    }

    @Override
    String roleName(Role role) {
        return Enums.v10(role);
    }

    @Override
    ObjectNode writePart(Part part) {
        ObjectNode o = Json.object();
        if (part instanceof Part.Text t) {
            o.put("text", t.text());
        } else if (part instanceof Part.Raw r) {
            o.put("raw", base64(r.bytes()));
        } else if (part instanceof Part.Url u) {
            o.put("url", u.url());
        } else {
            o.set("data", ((Part.Data) part).data());
        }
        putString(o, "filename", part.filename());
        putString(o, "mediaType", part.mediaType());
        putObject(o, "metadata", part.metadata());
        return o;
    }

    /** 1.0 has no final: the stream's close is the signal. */
    @Override
    void writeFinal(ObjectNode event, boolean isFinal) {}

    @Override
    boolean readFinal(ObjectNode event, String path) {
        return false;
    }

    @Override
    void writeWaitAndPush(ObjectNode configuration, SendMessageConfiguration c) {
        if (c.pushNotificationConfig() != null) {
            configuration.set("taskPushNotificationConfig", PushConfigs.to10(c.pushNotificationConfig()));
        }
        if (c.returnImmediately() != null) {
            configuration.put("returnImmediately", c.returnImmediately());
        }
    }

    @Override
    void writeTenant(ObjectNode params, String tenant) {
        putString(params, "tenant", tenant);
    }

    // ---- wrappers

    @Override
    public JsonNode writeSendResult(SendMessageResult result) {
        ObjectNode o = Json.object();
        if (result instanceof Task t) {
            o.set("task", writeTask(t));
        } else {
            o.set("message", writeMessage((Message) result));
        }
        return o;
    }

    @Override
    public SendMessageResult readSendResult(JsonNode result) {
        StreamEvent e = readWrapped(result, "task", "message");
        return (SendMessageResult) e;
    }

    @Override
    public JsonNode writeStreamEvent(StreamEvent event) {
        ObjectNode o = Json.object();
        if (event instanceof Task t) {
            o.set("task", writeTask(t));
        } else if (event instanceof Message m) {
            o.set("message", writeMessage(m));
        } else if (event instanceof TaskStatusUpdateEvent s) {
            o.set("statusUpdate", writeStatusUpdate(s));
        } else {
            o.set("artifactUpdate", writeArtifactUpdate((TaskArtifactUpdateEvent) event));
        }
        return o;
    }

    @Override
    public StreamEvent readStreamEvent(JsonNode result) {
        return readWrapped(result, STREAM_MEMBERS);
    }

    /** The one member of a oneof wrapper; none or several is an error naming the allowed members. */
    private StreamEvent readWrapped(JsonNode result, String... members) {
        ObjectNode o = Fields.object(result, "result");
        String found = null;
        for (String m : members) {
            if (Fields.has(o, m)) {
                if (found != null) {
                    throw new A2aFormatException("result: has both " + found + " and " + m);
                }
                found = m;
            }
        }
        if (found == null) {
            String hint = o.has("kind") ? " (a bare 0.3 object with kind?)" : "";
            throw new A2aFormatException("result: has none of " + String.join(", ", members) + hint);
        }
        JsonNode value = Fields.get(o, found);
        String path = "result." + found;
        switch (found) {
            case "task":
                return readTask(value, path);
            case "message":
                return readMessage(value, path);
            case "statusUpdate":
                return readStatusUpdate(value, path);
            default:
                return readArtifactUpdate(value, path);
        }
    }

    // ---- ListTasks

    @Override
    public JsonNode writeListTasksParams(ListTasksParams p) {
        ObjectNode o = Json.object();
        putString(o, "tenant", p.tenant());
        putString(o, "contextId", p.contextId());
        if (p.status() != null) {
            o.put("status", Enums.v10(p.status()));
        }
        if (p.pageSize() != null) {
            o.put("pageSize", p.pageSize());
        }
        putString(o, "pageToken", p.pageToken());
        if (p.historyLength() != null) {
            o.put("historyLength", p.historyLength());
        }
        if (p.statusTimestampAfter() != null) {
            o.put("statusTimestampAfter", Timestamps.format(p.statusTimestampAfter()));
        }
        if (p.includeArtifacts() != null) {
            o.put("includeArtifacts", p.includeArtifacts());
        }
        return o;
    }

    @Override
    public ListTasksParams readListTasksParams(JsonNode params) {
        String path = "params";
        ObjectNode o = params == null || params.isNull() ? Json.object() : Fields.object(params, path);
        JsonNode status = Fields.get(o, "status");
        return new ListTasksParams(
                Fields.string(o, "contextId", path),
                status == null ? null : Enums.readState(status, path + ".status"),
                Fields.integer(o, "pageSize", path),
                Fields.string(o, "pageToken", path),
                Fields.integer(o, "historyLength", path),
                Fields.timestamp(o, "statusTimestampAfter", path),
                Fields.bool(o, "includeArtifacts", path),
                Fields.string(o, "tenant", path));
    }

    /** All four members always: nextPageToken is "" on the last page (plain ProtoJSON would drop it). */
    @Override
    public JsonNode writeListTasksResult(ListTasksResult r) {
        ObjectNode o = Json.object();
        o.set("tasks", array(r.tasks(), this::writeTask));
        o.put("nextPageToken", r.nextPageToken());
        o.put("pageSize", r.pageSize());
        o.put("totalSize", r.totalSize());
        return o;
    }

    @Override
    public ListTasksResult readListTasksResult(JsonNode result) {
        String path = "result";
        ObjectNode o = Fields.object(result, path);
        Integer pageSize = Fields.integer(o, "pageSize", path);
        Integer totalSize = Fields.integer(o, "totalSize", path);
        return new ListTasksResult(
                Fields.list(o, "tasks", path, this::readTask),
                Fields.string(o, "nextPageToken", path),
                pageSize == null ? 0 : pageSize,
                totalSize == null ? 0 : totalSize);
    }

    // ---- errors

    /**
     * {@code data} becomes an array of ProtoJSON Any objects. Without data, an A2A code gets its
     * google.rpc.ErrorInfo; data that is no array (e.g. from a 0.3 peer) is kept as a
     * google.protobuf.Value Any after that ErrorInfo, so nothing is lost.
     */
    @Override
    public JsonNode writeError(JsonRpcError error) {
        ObjectNode o = Json.object();
        o.put("code", error.code());
        o.put("message", error.message() == null ? "" : error.message());
        JsonNode data = error.data();
        if (data != null && data.isArray()) {
            o.set("data", data);
            return o;
        }
        ArrayNode details = Json.mapper().createArrayNode();
        Optional<String> reason = JsonRpcError.errorInfoReason(error.code());
        boolean dataIsErrorInfo = data != null && ERROR_INFO.equals(data.path("@type").asText());
        if (reason.isPresent() && !dataIsErrorInfo) {
            details.addObject().put("@type", ERROR_INFO).put("reason", reason.get()).put("domain", "a2a-protocol.org");
        }
        if (data != null && !data.isNull()) {
            if (data.isObject() && data.has("@type")) {
                details.add(data);
            } else {
                details.addObject().put("@type", VALUE).set("value", data);
            }
        }
        if (!details.isEmpty()) {
            o.set("data", details);
        }
        return o;
    }
}
