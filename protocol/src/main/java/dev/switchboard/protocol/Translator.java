package dev.switchboard.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.switchboard.protocol.codec.CardCodec;
import dev.switchboard.protocol.codec.PushConfigs;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.util.Optional;

/**
 * Translates whole JSON-RPC payloads between 0.3 and 1.0 through the neutral model: method names,
 * params, results, stream events and errors. Same version in and out returns the input untouched.
 * Malformed input throws {@link dev.switchboard.protocol.codec.A2aFormatException}; ListTasks, which
 * 0.3 JSON-RPC lacks, throws {@link IllegalArgumentException} (check {@link #method} first).
 *
 * <p>Where the versions differ in what they can say: 1.0 → 0.3 status updates get
 * {@code final} from {@link #v03Final}; 0.3 → 1.0 drops {@code final} (the stream close says it);
 * non-object data parts are wrapped as {@code {"value": x}} for 0.3; 0.3 push auth keeps only its
 * first scheme in 1.0; 1.0 tenant and push-config paging have no 0.3 form and are dropped.
 */
public final class Translator {

    private Translator() {}

    /** The method name in the target version; empty when the target lacks it. */
    public static Optional<String> method(String name, ProtocolVersion to) {
        return A2aMethod.fromName(name).flatMap(m -> m.nameIn(to));
    }

    /**
     * The 0.3 {@code final} flag for a status update translated from 1.0: true for terminal states
     * and for input-required. A 1.0 server closes the stream after either (a2a-js does), so a 0.3
     * client must hear that the close is the end, not a dropped stream. auth-required stays false
     * because a2a-js keeps that stream open. (The a2a-js compat layer itself sends final:false on
     * input-required and then closes; we prefer telling the truth about the close.)
     */
    public static boolean v03Final(TaskState state) {
        return state.isTerminal() || state == TaskState.INPUT_REQUIRED;
    }

    /** Translates params of the given method from one version to the other. */
    public static JsonNode params(A2aMethod method, JsonNode params, ProtocolVersion from, ProtocolVersion to) {
        if (from == to) {
            return params;
        }
        WireCodec in = WireCodec.of(from);
        WireCodec out = WireCodec.of(to);
        boolean to10 = to == ProtocolVersion.V1_0;
        return switch (method) {
            case SEND_MESSAGE, SEND_STREAMING_MESSAGE -> out.writeSendParams(in.readSendParams(params));
            case GET_TASK, CANCEL_TASK, SUBSCRIBE_TO_TASK -> out.writeTaskQuery(in.readTaskQuery(params));
            case CREATE_PUSH_CONFIG -> to10 ? PushConfigs.to10(params) : PushConfigs.taskConfigTo03(params);
            case GET_PUSH_CONFIG, DELETE_PUSH_CONFIG -> to10 ? PushConfigs.refTo10(params) : PushConfigs.refTo03(params);
            case LIST_PUSH_CONFIGS -> to10 ? PushConfigs.listParamsTo10(params) : PushConfigs.listParamsTo03(params);
            // 1.0 may carry {tenant}; 0.3 takes no params.
            case GET_EXTENDED_CARD -> to10 ? params : null;
            case LIST_TASKS -> throw noListTasks();
        };
    }

    /** Translates the result of the given method (for streaming methods: one event's result). */
    public static JsonNode result(A2aMethod method, JsonNode result, ProtocolVersion from, ProtocolVersion to) {
        if (from == to) {
            return result;
        }
        WireCodec in = WireCodec.of(from);
        WireCodec out = WireCodec.of(to);
        boolean to10 = to == ProtocolVersion.V1_0;
        return switch (method) {
            case SEND_MESSAGE -> out.writeSendResult(in.readSendResult(result));
            case SEND_STREAMING_MESSAGE, SUBSCRIBE_TO_TASK -> out.writeStreamEvent(withFinal(in.readStreamEvent(result), to));
            case GET_TASK, CANCEL_TASK -> out.writeTask(in.readTask(result));
            case CREATE_PUSH_CONFIG, GET_PUSH_CONFIG -> to10 ? PushConfigs.to10(result) : PushConfigs.taskConfigTo03(result);
            case LIST_PUSH_CONFIGS -> to10 ? PushConfigs.listResultTo10(result) : PushConfigs.listResultTo03(result);
            // 1.0 returns google.protobuf.Empty ({} in ProtoJSON); 0.3 returns null.
            case DELETE_PUSH_CONFIG -> to10 ? Json.object() : NullNode.getInstance();
            case GET_EXTENDED_CARD -> out.writeCard(CardCodec.read(result));
            case LIST_TASKS -> throw noListTasks();
        };
    }

    /** Translates a JSON-RPC error object (1.0 data gains its ErrorInfo; 0.3 keeps data as given). */
    public static JsonNode error(JsonNode error, ProtocolVersion from, ProtocolVersion to) {
        if (from == to) {
            return error;
        }
        return WireCodec.of(to).writeError(WireCodec.of(from).readError(error));
    }

    private static StreamEvent withFinal(StreamEvent event, ProtocolVersion to) {
        if (to == ProtocolVersion.V0_3 && event instanceof TaskStatusUpdateEvent e) {
            return new TaskStatusUpdateEvent(e.taskId(), e.contextId(), e.status(), v03Final(e.status().state()), e.metadata());
        }
        return event;
    }

    private static IllegalArgumentException noListTasks() {
        return new IllegalArgumentException("ListTasks has no A2A 0.3 JSON-RPC form");
    }
}
