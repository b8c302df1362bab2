package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Params of SendMessage / SendStreamingMessage (0.3 {@code MessageSendParams}). */
public record SendMessageParams(
        Message message, SendMessageConfiguration configuration, ObjectNode metadata, String tenant) {

    public static SendMessageParams of(Message message) {
        return new SendMessageParams(message, null, null, null);
    }
}
