package dev.switchboard.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.UncheckedIOException;

/** One complete HTTP response as the caller saw it. */
public record Reply(int status, MultiMap headers, Buffer body) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public String text() {
        return body.toString();
    }

    public byte[] bytes() {
        return body.getBytes();
    }

    public String header(String name) {
        return headers.get(name);
    }

    public JsonNode json() {
        try {
            return JSON.readTree(body.getBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON (HTTP " + status + "): " + text(), e);
        }
    }

    /** {@code error.code} of a JSON-RPC error reply. */
    public int errorCode() {
        JsonNode error = json().path("error");
        if (!error.isObject()) {
            throw new AssertionError("expected a JSON-RPC error, got HTTP " + status + ": " + text());
        }
        return error.path("code").asInt();
    }

    public String errorMessage() {
        return json().path("error").path("message").asText();
    }

    public JsonNode errorData() {
        return json().path("error").path("data");
    }

    @Override
    public String toString() {
        return "HTTP " + status + " " + text();
    }
}
