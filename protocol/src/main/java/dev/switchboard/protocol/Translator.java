package dev.switchboard.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Translates whole JSON-RPC payloads between 0.3 and 1.0 through the neutral model: method names,
 * params, results, stream events and errors.
 */
public final class Translator {

    private Translator() {}

    /** The method name in the target version; empty when the target lacks it. */
    public static java.util.Optional<String> method(String name, ProtocolVersion to) {
        return A2aMethod.fromName(name).flatMap(m -> m.nameIn(to));
    }

    /** Translates params of the given method from one version to the other. */
    public static JsonNode params(A2aMethod method, JsonNode params, ProtocolVersion from, ProtocolVersion to) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** Translates the result of the given method (for streaming methods: one event's result). */
    public static JsonNode result(A2aMethod method, JsonNode result, ProtocolVersion from, ProtocolVersion to) {
        throw new UnsupportedOperationException("skeleton");
    }
}
