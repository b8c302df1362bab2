package dev.switchboard.client;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;

/** Canned A2A 1.0 replies for the purpose-built servers. */
final class Replies {

    static final WireCodec V10 = WireCodec.of(ProtocolVersion.V1_0);

    private Replies() {}

    static Task task(TaskState state) {
        return new Task("task-1", "ctx-1", TaskStatus.of(state), null, null, null);
    }

    /** A GetTask reply. */
    static String taskResult(TaskState state) {
        return JsonRpcCodec.result(TextNode.valueOf("any"), V10.writeTask(task(state)));
    }

    /** One stream event's JSON-RPC response, one line. */
    static String taskEvent(TaskState state) {
        return JsonRpcCodec.result(TextNode.valueOf("any"), V10.writeStreamEvent(task(state)));
    }

    static String error(int code, String message) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"any\",\"error\":{\"code\":" + code + ",\"message\":"
                + Json.write(TextNode.valueOf(message)) + "}}";
    }
}
