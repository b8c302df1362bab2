package dev.switchboard.protocol;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The shared Jackson mapper: compact output, unknown fields ignored. */
public final class Json {

    private Json() {}

    public static ObjectMapper mapper() {
        throw new UnsupportedOperationException("skeleton");
    }
}
