package dev.switchboard.registry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.model.AgentSkill;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates a {@code POST /agents/register} body (KubeMQ's shape, snake_case {@code agent_id}) into
 * a registration. Each problem is reported as the field it concerns.
 */
final class RegistrationRequest {

    /** A field of the body that is wrong. */
    static final class Invalid extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String field;

        Invalid(String field, String problem) {
            super(field + ": " + problem, null, false, false);
            this.field = field;
        }
    }

    private RegistrationRequest() {}

    static RegisteredAgent parse(JsonNode body, Instant now, EgressPolicy egress) {
        if (body == null || !body.isObject()) {
            throw new Invalid("body", "must be a JSON object");
        }
        String id = requiredString(body, "agent_id");
        if (!AgentIds.isValid(id)) {
            throw new Invalid("agent_id", "'" + id + "' is not valid: " + AgentIds.rule());
        }
        String name = requiredString(body, "name");
        String url = requiredString(body, "url");
        egress.problemWithUrl(url).ifPresent(problem -> {
            throw new Invalid("url", problem); // never echoed: it may hold a password
        });
        List<AgentSkill> skills = new ArrayList<>();
        JsonNode s = body.get("skills");
        if (s != null && !s.isNull()) {
            if (!s.isArray()) {
                throw new Invalid("skills", "must be an array of {id, name, description, tags}");
            }
            for (int i = 0; i < s.size(); i++) {
                JsonNode skill = s.get(i);
                String field = "skills[" + i + "]";
                if (!skill.isObject()) {
                    throw new Invalid(field, "must be an object");
                }
                String sid = requiredString(skill, "id", field + ".id");
                skills.add(new AgentSkill(sid, optionalString(skill, "name", field + ".name", sid),
                        optionalString(skill, "description", field + ".description", ""),
                        strings(skill, "tags", field + ".tags", List.of()), null, null, null));
            }
        }
        return new RegisteredAgent(id, name, url,
                optionalString(body, "description", "description", ""),
                optionalString(body, "version", "version", ""),
                skills,
                strings(body, "defaultInputModes", "defaultInputModes", List.of("text")),
                strings(body, "defaultOutputModes", "defaultOutputModes", List.of("text")),
                strings(body, "protocolVersions", "protocolVersions", List.of("1.0")),
                null, AgentLimits.DEFAULTS, AgentOrigin.DYNAMIC, now, now);
    }

    static String agentIdOf(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new Invalid("body", "must be a JSON object with agent_id");
        }
        return requiredString(body, "agent_id");
    }

    private static String requiredString(JsonNode n, String field) {
        return requiredString(n, field, field);
    }

    private static String requiredString(JsonNode n, String field, String shownAs) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new Invalid(shownAs, "is required");
        }
        if (!v.isTextual()) {
            throw new Invalid(shownAs, "must be a string");
        }
        if (v.asText().isBlank()) {
            throw new Invalid(shownAs, "must not be empty");
        }
        return v.asText();
    }

    private static String optionalString(JsonNode n, String field, String shownAs, String fallback) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isTextual()) {
            throw new Invalid(shownAs, "must be a string");
        }
        return v.asText();
    }

    private static List<String> strings(JsonNode n, String field, String shownAs, List<String> fallback) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isArray()) {
            throw new Invalid(shownAs, "must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            if (!v.get(i).isTextual()) {
                throw new Invalid(shownAs + "[" + i + "]", "must be a string");
            }
            out.add(v.get(i).asText());
        }
        return out;
    }
}
