package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.SendMessageConfiguration;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskQueryParams;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * What both versions share: the field layout of every type is the same, so one reader and one
 * writer serve both, with hooks for what differs (kind tags, enum spellings, Part shape, the 0.3
 * {@code final} flag, tenant, the blocking flag and push config). The reader is deliberately
 * version-blind where it costs nothing: it accepts either Part shape and every enum spelling.
 */
abstract sealed class ModelCodec implements WireCodec permits V10Codec, V03Codec {

    /** A new object; the 0.3 writer puts {@code kind} first. */
    abstract ObjectNode start(String kind);

    abstract String stateName(TaskState state);

    /** Null when the version has no spelling for the role (then it is left out). */
    abstract String roleName(Role role);

    abstract ObjectNode writePart(Part part);

    abstract void writeFinal(ObjectNode event, boolean isFinal);

    abstract boolean readFinal(ObjectNode event, String path);

    /** Writes the send configuration members that differ: blocking polarity and the push config shape. */
    abstract void writeWaitAndPush(ObjectNode configuration, SendMessageConfiguration c);

    abstract void writeTenant(ObjectNode params, String tenant);

    // ---- Message, Part

    @Override
    public JsonNode writeMessage(Message m) {
        ObjectNode o = start("message");
        putString(o, "messageId", m.messageId());
        putString(o, "role", roleName(m.role()));
        o.set("parts", array(m.parts(), this::writePart));
        putString(o, "contextId", m.contextId());
        putString(o, "taskId", m.taskId());
        putObject(o, "metadata", m.metadata());
        putStrings(o, "extensions", m.extensions());
        putStrings(o, "referenceTaskIds", m.referenceTaskIds());
        return o;
    }

    @Override
    public Message readMessage(JsonNode json) {
        return readMessage(json, "message");
    }

    Message readMessage(JsonNode json, String path) {
        ObjectNode o = Fields.object(json, path);
        checkKind(o, "message", path);
        return new Message(
                Fields.requiredString(o, "messageId", path),
                Enums.readRole(Fields.get(o, "role"), path + ".role"),
                Fields.list(o, "parts", path, this::readPart),
                Fields.string(o, "contextId", path),
                Fields.string(o, "taskId", path),
                Fields.objectOrNull(o, "metadata", path),
                Fields.strings(o, "extensions", path),
                Fields.strings(o, "referenceTaskIds", path));
    }

    Part readPart(JsonNode json, String path) {
        ObjectNode o = Fields.object(json, path);
        String mediaType = Fields.string(o, "mediaType", path);
        if (mediaType == null) {
            mediaType = Fields.string(o, "mimeType", path);
        }
        String filename = Fields.string(o, "filename", path);
        ObjectNode metadata = Fields.objectOrNull(o, "metadata", path);
        String kind = Fields.string(o, "kind", path);
        if (kind == null) {
            kind = flatKind(o, path);
        }
        switch (kind) {
            case "text":
                return new Part.Text(Fields.requiredString(o, "text", path), mediaType, filename, metadata);
            case "raw":
                return new Part.Raw(base64(Fields.requiredString(o, "raw", path), path + ".raw"),
                        mediaType, filename, metadata);
            case "url":
                return new Part.Url(Fields.requiredString(o, "url", path), mediaType, filename, metadata);
            case "data":
                if (!o.has("data")) {
                    throw new A2aFormatException(path + ".data: missing");
                }
                return new Part.Data(o.get("data"), mediaType, filename, metadata);
            case "file":
                return readFile(Fields.objectOrNull(o, "file", path), path + ".file", mediaType, filename, metadata);
            default:
                throw new A2aFormatException(path + ".kind: unknown part kind '" + kind + "'");
        }
    }

    /** The content member of a part without kind: 1.0's oneof (or a 0.3 part missing its tag). */
    private static String flatKind(ObjectNode o, String path) {
        String found = null;
        for (String member : new String[] {"text", "raw", "url", "data", "file"}) {
            if (o.has(member)) {
                if (found != null) {
                    throw new A2aFormatException(path + ": part has both " + found + " and " + member);
                }
                found = member;
            }
        }
        if (found == null) {
            throw new A2aFormatException(path + ": part has none of text, raw, url, data");
        }
        return found;
    }

    private static Part readFile(ObjectNode file, String path, String mediaType, String filename, ObjectNode metadata) {
        if (file == null) {
            throw new A2aFormatException(path + ": missing");
        }
        String mime = Fields.string(file, "mimeType", path);
        String type = mime != null ? mime : mediaType;
        String fileName = Fields.string(file, "name", path);
        String name = fileName != null ? fileName : filename;
        String bytes = Fields.string(file, "bytes", path);
        String uri = Fields.string(file, "uri", path);
        if (bytes != null && uri != null) {
            throw new A2aFormatException(path + ": file has both bytes and uri");
        }
        if (bytes != null) {
            return new Part.Raw(base64(bytes, path + ".bytes"), type, name, metadata);
        }
        if (uri != null) {
            return new Part.Url(uri, type, name, metadata);
        }
        throw new A2aFormatException(path + ": file has neither bytes nor uri");
    }

    /** Standard or URL-safe alphabet, padded or not (ProtoJSON readers must take both). */
    private static byte[] base64(String text, String path) {
        String s = text.strip();
        try {
            return s.indexOf('-') >= 0 || s.indexOf('_') >= 0
                    ? Base64.getUrlDecoder().decode(s)
                    : Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new A2aFormatException(path + ": not base64 (" + e.getMessage() + ")", e);
        }
    }

    static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    // ---- Task, TaskStatus, Artifact

    @Override
    public JsonNode writeTask(Task t) {
        ObjectNode o = start("task");
        putString(o, "id", t.id());
        putString(o, "contextId", t.contextId());
        o.set("status", writeStatus(t.status()));
        if (t.artifacts() != null) {
            o.set("artifacts", array(t.artifacts(), this::writeArtifact));
        }
        if (t.history() != null) {
            o.set("history", array(t.history(), this::writeMessage));
        }
        putObject(o, "metadata", t.metadata());
        return o;
    }

    @Override
    public Task readTask(JsonNode json) {
        return readTask(json, "task");
    }

    Task readTask(JsonNode json, String path) {
        ObjectNode o = Fields.object(json, path);
        checkKind(o, "task", path);
        return new Task(
                Fields.requiredString(o, "id", path),
                Fields.string(o, "contextId", path),
                readStatus(Fields.get(o, "status"), path + ".status"),
                Fields.list(o, "artifacts", path, this::readArtifact),
                Fields.list(o, "history", path, this::readMessage),
                Fields.objectOrNull(o, "metadata", path));
    }

    ObjectNode writeStatus(TaskStatus s) {
        ObjectNode o = Json.object();
        o.put("state", stateName(s.state()));
        if (s.message() != null) {
            o.set("message", writeMessage(s.message()));
        }
        if (s.timestamp() != null) {
            o.put("timestamp", Timestamps.format(s.timestamp()));
        }
        return o;
    }

    TaskStatus readStatus(JsonNode json, String path) {
        if (json == null) {
            return null;
        }
        ObjectNode o = Fields.object(json, path);
        JsonNode message = Fields.get(o, "message");
        return new TaskStatus(
                Enums.readState(Fields.get(o, "state"), path + ".state"),
                message == null ? null : readMessage(message, path + ".message"),
                Fields.timestamp(o, "timestamp", path));
    }

    ObjectNode writeArtifact(Artifact a) {
        ObjectNode o = Json.object();
        putString(o, "artifactId", a.artifactId());
        putString(o, "name", a.name());
        putString(o, "description", a.description());
        o.set("parts", array(a.parts(), this::writePart));
        putObject(o, "metadata", a.metadata());
        putStrings(o, "extensions", a.extensions());
        return o;
    }

    Artifact readArtifact(JsonNode json, String path) {
        ObjectNode o = Fields.object(json, path);
        return new Artifact(
                Fields.requiredString(o, "artifactId", path),
                Fields.string(o, "name", path),
                Fields.string(o, "description", path),
                Fields.list(o, "parts", path, this::readPart),
                Fields.objectOrNull(o, "metadata", path),
                Fields.strings(o, "extensions", path));
    }

    // ---- update events

    ObjectNode writeStatusUpdate(TaskStatusUpdateEvent e) {
        ObjectNode o = start("status-update");
        putString(o, "taskId", e.taskId());
        putString(o, "contextId", e.contextId());
        o.set("status", writeStatus(e.status()));
        writeFinal(o, e.isFinal());
        putObject(o, "metadata", e.metadata());
        return o;
    }

    TaskStatusUpdateEvent readStatusUpdate(JsonNode json, String path) {
        ObjectNode o = Fields.object(json, path);
        checkKind(o, "status-update", path);
        return new TaskStatusUpdateEvent(
                Fields.requiredString(o, "taskId", path),
                Fields.string(o, "contextId", path),
                readStatus(Fields.get(o, "status"), path + ".status"),
                readFinal(o, path),
                Fields.objectOrNull(o, "metadata", path));
    }

    /** append and lastChunk default to false and are left out then (a2a-js does the same). */
    ObjectNode writeArtifactUpdate(TaskArtifactUpdateEvent e) {
        ObjectNode o = start("artifact-update");
        putString(o, "taskId", e.taskId());
        putString(o, "contextId", e.contextId());
        o.set("artifact", writeArtifact(e.artifact()));
        if (e.append()) {
            o.put("append", true);
        }
        if (e.lastChunk()) {
            o.put("lastChunk", true);
        }
        putObject(o, "metadata", e.metadata());
        return o;
    }

    TaskArtifactUpdateEvent readArtifactUpdate(JsonNode json, String path) {
        ObjectNode o = Fields.object(json, path);
        checkKind(o, "artifact-update", path);
        JsonNode artifact = Fields.get(o, "artifact");
        if (artifact == null) {
            throw new A2aFormatException(path + ".artifact: missing");
        }
        return new TaskArtifactUpdateEvent(
                Fields.requiredString(o, "taskId", path),
                Fields.string(o, "contextId", path),
                readArtifact(artifact, path + ".artifact"),
                Fields.flag(o, "append", path),
                Fields.flag(o, "lastChunk", path),
                Fields.objectOrNull(o, "metadata", path));
    }

    // ---- params

    @Override
    public JsonNode writeSendParams(SendMessageParams p) {
        ObjectNode o = Json.object();
        writeTenant(o, p.tenant());
        o.set("message", writeMessage(p.message()));
        if (p.configuration() != null) {
            SendMessageConfiguration c = p.configuration();
            ObjectNode co = o.putObject("configuration");
            putStrings(co, "acceptedOutputModes", c.acceptedOutputModes());
            if (c.historyLength() != null) {
                co.put("historyLength", c.historyLength());
            }
            writeWaitAndPush(co, c);
            if (c.timeoutSeconds() != null) {
                co.put("timeout", c.timeoutSeconds());
            }
        }
        putObject(o, "metadata", p.metadata());
        return o;
    }

    /**
     * Either version's configuration: {@code returnImmediately} wins over {@code blocking} (inverted);
     * the push config is kept as sent under {@code taskPushNotificationConfig} or {@code pushNotificationConfig}.
     */
    @Override
    public SendMessageParams readSendParams(JsonNode json) {
        String path = "params";
        ObjectNode o = Fields.object(json, path);
        JsonNode message = Fields.get(o, "message");
        ObjectNode co = Fields.objectOrNull(o, "configuration", path);
        SendMessageConfiguration configuration = null;
        if (co != null) {
            String cp = path + ".configuration";
            Boolean returnImmediately = Fields.bool(co, "returnImmediately", cp);
            if (returnImmediately == null) {
                Boolean blocking = Fields.bool(co, "blocking", cp);
                returnImmediately = blocking == null ? null : !blocking;
            }
            ObjectNode push = Fields.objectOrNull(co, "taskPushNotificationConfig", cp);
            if (push == null) {
                push = Fields.objectOrNull(co, "pushNotificationConfig", cp);
            }
            configuration = new SendMessageConfiguration(
                    Fields.strings(co, "acceptedOutputModes", cp),
                    Fields.integer(co, "historyLength", cp),
                    returnImmediately,
                    push,
                    Fields.longValue(co, "timeout", cp));
        }
        return new SendMessageParams(
                readMessage(message, path + ".message"),
                configuration,
                Fields.objectOrNull(o, "metadata", path),
                Fields.string(o, "tenant", path));
    }

    @Override
    public JsonNode writeTaskQuery(TaskQueryParams p) {
        ObjectNode o = Json.object();
        writeTenant(o, p.tenant());
        putString(o, "id", p.id());
        if (p.historyLength() != null) {
            o.put("historyLength", p.historyLength());
        }
        putObject(o, "metadata", p.metadata());
        return o;
    }

    @Override
    public TaskQueryParams readTaskQuery(JsonNode json) {
        String path = "params";
        ObjectNode o = Fields.object(json, path);
        return new TaskQueryParams(
                Fields.requiredString(o, "id", path),
                Fields.integer(o, "historyLength", path),
                Fields.objectOrNull(o, "metadata", path),
                Fields.string(o, "tenant", path));
    }

    // ---- errors, cards

    @Override
    public JsonRpcError readError(JsonNode error) {
        return JsonRpcCodec.readError(error);
    }

    @Override
    public JsonNode writeCard(AgentCard card) {
        return CardCodec.write(card, version());
    }

    // ---- helpers

    void checkKind(ObjectNode o, String expected, String path) {
        String kind = Fields.string(o, "kind", path);
        if (kind != null && !kind.equals(expected)) {
            throw new A2aFormatException(path + ".kind: expected '" + expected + "', got '" + kind + "'");
        }
    }

    static <T> ArrayNode array(List<T> items, Function<T, ? extends JsonNode> writer) {
        ArrayNode a = Json.mapper().createArrayNode();
        for (T item : items) {
            a.add(writer.apply(item));
        }
        return a;
    }

    static void putString(ObjectNode o, String name, String value) {
        if (value != null) {
            o.put(name, value);
        }
    }

    static void putObject(ObjectNode o, String name, JsonNode value) {
        if (value != null) {
            o.set(name, value);
        }
    }

    /** Empty lists are left out: absent and [] mean the same for these optional lists. */
    static void putStrings(ObjectNode o, String name, List<String> values) {
        if (!values.isEmpty()) {
            ArrayNode a = o.putArray(name);
            values.forEach(a::add);
        }
    }
}
