package dev.switchboard.testkit.slack;

import java.time.Instant;
import java.util.Map;

/**
 * One Web API call the fake received, whatever it answered (rate-limited and refused calls too, so a test
 * can count a client's attempts).
 *
 * @param method e.g. {@code chat.postMessage}
 * @param params the form fields (or a JSON body's top-level fields, non-strings as JSON text) and query parameters
 * @param token the bearer token (or the {@code token} field); null when none was sent
 * @param at when the call arrived
 */
public record SlackCall(String method, Map<String, String> params, String token, Instant at) {

    public SlackCall {
        params = Map.copyOf(params);
    }

    /** A parameter, or null. */
    public String param(String name) {
        return params.get(name);
    }
}
