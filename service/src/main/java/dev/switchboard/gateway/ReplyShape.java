package dev.switchboard.gateway;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
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
        ByteBuf bytes = ((BufferInternal) body).getByteBuf();
        if (bytes.hasArray()) {
            return of(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes());
        }
        byte[] copy = body.getBytes();
        return of(copy, 0, copy.length);
    }

    static ReplyShape of(byte[] body, int offset, int length) {
        ReplyShape fast = scan(body, offset, length);
        return fast != null ? fast : withJackson(body, offset, length);
    }

    /** The shape read by {@link JsonScan} in one allocation-free pass; null when it is unsure (Jackson decides). */
    static ReplyShape scan(byte[] body, int offset, int length) {
        JsonScan s = new JsonScan(body, offset, length);
        int i = s.ws(offset);
        if (i >= s.end || body[i] != '{') {
            return null;
        }
        boolean jsonrpc = false;
        ReplyShape shape = NOT_JSON_RPC;
        i = s.ws(i + 1);
        if (i < s.end && body[i] == '}') {
            return NOT_JSON_RPC;
        }
        while (true) {
            if (i >= s.end || body[i] != '"') {
                return null;
            }
            int k = i;
            i = s.string(i);
            if (i == JsonScan.UNSURE || !s.plain(k, i)) {
                return null;
            }
            int keyEnd = i;
            i = s.ws(i);
            if (i >= s.end || body[i] != ':') {
                return null;
            }
            i = s.value(s.ws(i + 1), 1);
            if (i == JsonScan.UNSURE) {
                return null;
            }
            if (s.is(k, keyEnd, "jsonrpc")) {
                jsonrpc = true;
            } else if (s.is(k, keyEnd, "error")) {
                shape = ERROR;
            } else if (s.is(k, keyEnd, "result")) {
                shape = shape == ERROR ? ERROR : RESULT;
            }
            i = s.ws(i);
            if (i >= s.end) {
                return null;
            }
            if (body[i] == '}') {
                return jsonrpc ? shape : NOT_JSON_RPC;
            }
            if (body[i] != ',') {
                return null;
            }
            i = s.ws(i + 1);
        }
    }

    static ReplyShape withJackson(byte[] body, int offset, int length) {
        try (JsonParser p = JSON.createParser(body, offset, length)) {
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
