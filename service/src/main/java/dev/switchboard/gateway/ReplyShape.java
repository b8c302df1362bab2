package dev.switchboard.gateway;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;

/**
 * What an agent's reply body is, read from its top-level members only: a JSON-RPC error, a
 * JSON-RPC result, or something else (not JSON-RPC at all).
 */
enum ReplyShape {
    RESULT,
    ERROR,
    NOT_JSON_RPC;

    private static final JsonFactory JSON = new JsonFactory();

    static ReplyShape of(Buffer body) {
        try (JsonParser p = JSON.createParser(body.getBytes())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return NOT_JSON_RPC;
            }
            boolean jsonrpc = false;
            ReplyShape shape = NOT_JSON_RPC;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "jsonrpc" -> jsonrpc = true;
                    case "error" -> shape = ERROR;
                    case "result" -> shape = shape == ERROR ? ERROR : RESULT;
                    default -> { }
                }
                p.skipChildren();
            }
            return jsonrpc ? shape : NOT_JSON_RPC;
        } catch (IOException | RuntimeException e) {
            return NOT_JSON_RPC;
        }
    }
}
