package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.model.AgentCard;

/**
 * Agent cards in any shape. {@link #read} takes 1.0 {@code supportedInterfaces} first, then falls
 * back to the 0.3 {@code url}/{@code preferredTransport}/{@code additionalInterfaces}.
 */
public final class CardCodec {

    private CardCodec() {}

    public static AgentCard read(JsonNode json) {
        throw new UnsupportedOperationException("skeleton");
    }

    /**
     * The hybrid card a2a-js serves when no A2A-Version is asked for: the 0.3 top-level url,
     * preferredTransport and protocolVersion plus the full 1.0 supportedInterfaces.
     */
    public static JsonNode writeHybrid(AgentCard card) {
        throw new UnsupportedOperationException("skeleton");
    }
}
