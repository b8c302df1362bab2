package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.SendMessageResult;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskQueryParams;

/**
 * Reads and writes the A2A JSON of one wire version. Readers are lenient (absent = null = default,
 * enum numbers and other spellings accepted, unknown fields ignored) and throw
 * {@link A2aFormatException} naming the field when a required value is missing or of the wrong type.
 * Writers are exact: 0.3 puts {@code kind} everywhere, 1.0 never; 1.0 wraps SendMessage results and
 * stream events; presence rules as in the wire reference's pitfalls.
 */
public interface WireCodec {

    ProtocolVersion version();

    static WireCodec of(ProtocolVersion version) {
        return version == ProtocolVersion.V1_0 ? V10Codec.INSTANCE : V03Codec.INSTANCE;
    }

    JsonNode writeMessage(Message message);

    Message readMessage(JsonNode json);

    JsonNode writeTask(Task task);

    Task readTask(JsonNode json);

    /** SendMessage's {@code result}: 1.0 {@code {"task":…}}/{@code {"message":…}}, 0.3 the bare object with kind. */
    JsonNode writeSendResult(SendMessageResult result);

    SendMessageResult readSendResult(JsonNode result);

    /** A stream event's {@code result}: 1.0 StreamResponse wrapper, 0.3 bare object with kind. */
    JsonNode writeStreamEvent(StreamEvent event);

    StreamEvent readStreamEvent(JsonNode result);

    JsonNode writeSendParams(SendMessageParams params);

    SendMessageParams readSendParams(JsonNode params);

    JsonNode writeTaskQuery(TaskQueryParams params);

    TaskQueryParams readTaskQuery(JsonNode params);

    /** 1.0 only; the 0.3 codec throws {@link UnsupportedOperationException}. */
    JsonNode writeListTasksParams(ListTasksParams params);

    ListTasksParams readListTasksParams(JsonNode params);

    JsonNode writeListTasksResult(ListTasksResult result);

    ListTasksResult readListTasksResult(JsonNode result);

    /** The error object: 1.0 data as an array with a google.rpc.ErrorInfo for A2A codes, 0.3 data as given. */
    JsonNode writeError(JsonRpcError error);

    JsonRpcError readError(JsonNode error);

    /** A card in this version's pure shape (1.0 supportedInterfaces; 0.3 url/preferredTransport/additionalInterfaces). */
    JsonNode writeCard(AgentCard card);
}
