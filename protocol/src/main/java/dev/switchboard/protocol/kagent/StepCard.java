package dev.switchboard.protocol.kagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.model.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A step of a kagent agent's work: a tool call or its result, as kagent sends them in DataParts typed by part
 * metadata ({@code kagent_type} or upstream ADK's {@code adk_type}, the {@code adk_} one read first, as kagent's own
 * readers do): {@code function_call} {@code {id, name, args}}, {@code function_response} {@code {id, name, response}}
 * (kagent-dev/kagent {@code python/packages/kagent-adk/src/kagent/adk/converters/part_converter.py},
 * {@code go/adk/pkg/a2a/consts.go}).
 *
 * @param detailJson the call's arguments, or the result's response, as JSON
 * @param error a result whose response says {@code isError: true}
 */
public record StepCard(Kind kind, String id, String name, String detailJson, boolean error) {

    public enum Kind { CALL, RESULT }

    /** The cards among some parts; other parts (text, other data) are not steps. */
    public static List<StepCard> of(List<Part> parts) {
        List<StepCard> cards = new ArrayList<>();
        for (Part p : parts) {
            of(p).ifPresent(cards::add);
        }
        return cards;
    }

    public static Optional<StepCard> of(Part part) {
        if (!(part instanceof Part.Data d) || d.data() == null || !d.data().isObject()) {
            return Optional.empty();
        }
        String type = metadata(d.metadata(), "type");
        JsonNode data = d.data();
        String id = data.path("id").asText(null);
        String name = data.path("name").asText("");
        if ("function_call".equals(type)) {
            // kagent's own UI skips the credential request: it is not a step a person acts on
            if (name.equals("adk_request_credential")) {
                return Optional.empty();
            }
            JsonNode args = data.path("args");
            return Optional.of(new StepCard(Kind.CALL, id, name, args.isMissingNode() || args.isNull() ? "{}" : Json.write(args),
                    false));
        }
        if ("function_response".equals(type)) {
            JsonNode response = data.path("response");
            String status = response.path("status").asText("");
            if (status.equals("confirmation_requested") || status.equals("pending")) {
                return Optional.empty();
            }
            return Optional.of(new StepCard(Kind.RESULT, id, name,
                    response.isMissingNode() ? "null" : Json.write(response), response.path("isError").asBoolean(false)));
        }
        return Optional.empty();
    }

    /** {@code adk_<key>} first, then {@code kagent_<key>}. */
    static String metadata(ObjectNode metadata, String key) {
        if (metadata == null) {
            return null;
        }
        JsonNode v = metadata.get("adk_" + key);
        if (v == null || !v.isTextual()) {
            v = metadata.get("kagent_" + key);
        }
        return v != null && v.isTextual() ? v.asText() : null;
    }
}
