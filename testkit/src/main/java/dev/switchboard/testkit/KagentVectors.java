package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * kagent's wire shapes as JSON test vectors ({@code testkit/src/main/resources/kagent/}, whose README names the
 * kagent source each one is modelled on). They live in the testkit's main jar so that service tests can check
 * the bridge against the very objects the testkit's kagent mode is checked against.
 */
public final class KagentVectors {

    /** Every vector file, for tests that parse them all. */
    public static final List<String> FILES = List.of(
            "card_extension.json",
            "tool_approval_request.json",
            "tool_approval_request_many.json",
            "tool_approval_request_nested.json",
            "ask_user_request.json",
            "hitl_not_activated.json",
            "tool_approval_response.json",
            "tool_approval_response_mixed.json",
            "tool_approval_response_nested.json",
            "ask_user_response.json",
            "step_function_call.json",
            "step_function_response.json",
            "step_adk_type.json",
            "failed_max_tokens.json");

    private KagentVectors() {}

    /**
     * One vector as a fresh tree (callers may change it), e.g. {@code json("tool_approval_request.json")}.
     *
     * @throws IllegalArgumentException when there is no such vector
     */
    public static JsonNode json(String file) {
        try (InputStream in = KagentVectors.class.getResourceAsStream("/kagent/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no kagent test vector " + file + "; there are " + FILES);
            }
            return Json.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("kagent test vector " + file + " is not JSON", e);
        }
    }
}
