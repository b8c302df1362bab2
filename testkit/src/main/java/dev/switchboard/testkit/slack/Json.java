package dev.switchboard.testkit.slack;

import io.vertx.core.json.DecodeException;

/** Parses JSON text sent inside form fields; text that is not JSON stays a string, as a lenient fake should. */
final class Json {

    private Json() {
    }

    static Object parse(String text) {
        try {
            return io.vertx.core.json.Json.decodeValue(text);
        } catch (DecodeException e) {
            return text;
        }
    }
}
