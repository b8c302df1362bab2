package dev.switchboard.fuzz;

import java.util.Map;

/**
 * What the service answered: status (-1 when the connection closed without an answer), headers by
 * lowercase name, body; {@code failure} says why there is no answer.
 */
record Reply(int status, Map<String, String> headers, byte[] body, String failure) {

    String header(String lowercaseName) {
        return headers.get(lowercaseName);
    }

    @Override
    public String toString() {
        return status + " " + headers + " " + Inputs.show(body, 400) + (failure == null ? "" : " [" + failure + "]");
    }
}
