package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCapabilities;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentExtension;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.protocol.model.AgentSkill;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Agent cards in any shape. {@link #read} takes 1.0 {@code supportedInterfaces} first, then falls
 * back to the 0.3 {@code url}/{@code preferredTransport}/{@code additionalInterfaces}.
 *
 * <p>{@link AgentCard#extra()} holds every top-level member the model does not interpret
 * (provider, securitySchemes, security/securityRequirements, signatures, unknown members), verbatim
 * as read. Writers copy them back, so a card read and written in the same version loses none of them;
 * writing the other version converts {@code securitySchemes} and the security requirements to that
 * version's shape and copies the rest unchanged. An extra member never overrides a modelled one.
 * Not kept: unknown members inside capabilities and skills (e.g. a skill's own security
 * requirements), and 0.3 {@code stateTransitionHistory} when writing 1.0, which dropped it.
 */
public final class CardCodec {

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(\\.\\d+)?");
    private static final Set<String> INTERPRETED = Set.of(
            "name", "description", "version", "documentationUrl", "iconUrl", "supportedInterfaces", "url",
            "preferredTransport", "additionalInterfaces", "protocolVersion", "capabilities",
            "supportsAuthenticatedExtendedCard", "defaultInputModes", "defaultOutputModes", "skills");

    private CardCodec() {}

    public static AgentCard read(JsonNode json) {
        String path = "card";
        ObjectNode o = Fields.object(json, path);
        ObjectNode caps = Fields.objectOrNull(o, "capabilities", path);
        ObjectNode extra = Json.object();
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            if (!INTERPRETED.contains(e.getKey()) && !INTERPRETED.contains(camel(e.getKey()))) {
                extra.set(e.getKey(), e.getValue());
            }
        }
        return new AgentCard(
                Fields.string(o, "name", path),
                Fields.string(o, "description", path),
                Fields.string(o, "version", path),
                readInterfaces(o, path),
                readCapabilities(caps, Fields.flag(o, "supportsAuthenticatedExtendedCard", path), path + ".capabilities"),
                Fields.strings(o, "defaultInputModes", path),
                Fields.strings(o, "defaultOutputModes", path),
                Fields.list(o, "skills", path, CardCodec::readSkill),
                Fields.string(o, "documentationUrl", path),
                Fields.string(o, "iconUrl", path),
                extra.isEmpty() ? null : extra);
    }

    /**
     * The hybrid card a2a-js serves when no A2A-Version is asked for: the 0.3 card (top-level url,
     * preferredTransport, protocolVersion "0.3", 0.3 capabilities and security shapes) plus the full
     * 1.0 supportedInterfaces, which is all a 1.0 client reads. The 0.3 members name the first 0.3
     * interface (the first interface when none is 0.3). Like a2a-js, no additionalInterfaces.
     */
    public static JsonNode writeHybrid(AgentCard card) {
        return write(card, ProtocolVersion.V0_3, true);
    }

    /**
     * "0.3.0" → "0.3", "1.0.1" → "1.0"; anything not Major.Minor[.Patch] is returned unchanged.
     * 0.3 cards say "0.3.0" while 1.0 interfaces say "0.3" (wire reference, pitfall 3).
     */
    public static String normaliseVersion(String version) {
        if (version == null) {
            return null;
        }
        Matcher m = VERSION.matcher(version.trim());
        return m.matches() ? m.group(1) + "." + m.group(2) : version;
    }

    static ObjectNode write(AgentCard card, ProtocolVersion version) {
        return write(card, version, false);
    }

    private static ObjectNode write(AgentCard card, ProtocolVersion version, boolean hybrid) {
        boolean v10 = version == ProtocolVersion.V1_0;
        ObjectNode o = Json.object();
        ModelCodec.putString(o, "name", card.name());
        ModelCodec.putString(o, "description", card.description());
        if (v10) {
            writeSupportedInterfaces(o, card);
        } else {
            List<AgentInterface> interfaces = interfacesFor03(card);
            if (!interfaces.isEmpty()) {
                o.put("url", interfaces.get(0).url());
                o.put("preferredTransport", binding(interfaces.get(0)));
            }
            if (!interfaces.isEmpty() && !hybrid) {
                // 0.3 says additionalInterfaces should repeat the main url; a2a-java does so.
                ArrayNode additional = o.putArray("additionalInterfaces");
                for (AgentInterface i : interfaces) {
                    additional.addObject().put("url", i.url()).put("transport", binding(i));
                }
            }
            o.put("protocolVersion", hybrid ? ProtocolVersion.V0_3.label() : "0.3.0");
        }
        ModelCodec.putString(o, "version", card.version());
        o.set("capabilities", writeCapabilities(card.capabilities(), v10));
        strings(o, "defaultInputModes", card.defaultInputModes());
        strings(o, "defaultOutputModes", card.defaultOutputModes());
        ArrayNode skills = o.putArray("skills");
        card.skills().forEach(s -> skills.add(writeSkill(s)));
        ModelCodec.putString(o, "documentationUrl", card.documentationUrl());
        ModelCodec.putString(o, "iconUrl", card.iconUrl());
        if (!v10) {
            o.put("supportsAuthenticatedExtendedCard", card.capabilities().extendedAgentCard());
        }
        writeExtra(o, card.extra(), v10);
        if (hybrid) {
            writeSupportedInterfaces(o, card);
        }
        return o;
    }

    private static void writeSupportedInterfaces(ObjectNode o, AgentCard card) {
        ArrayNode interfaces = o.putArray("supportedInterfaces");
        for (AgentInterface i : card.interfaces()) {
            ObjectNode io = interfaces.addObject();
            ModelCodec.putString(io, "url", i.url());
            io.put("protocolBinding", binding(i));
            ModelCodec.putString(io, "protocolVersion", i.protocolVersion());
            ModelCodec.putString(io, "tenant", i.tenant());
        }
    }

    private static void writeExtra(ObjectNode o, ObjectNode extra, boolean v10) {
        if (extra == null) {
            return;
        }
        for (Map.Entry<String, JsonNode> e : extra.properties()) {
            String name = e.getKey();
            JsonNode value = e.getValue();
            if (o.has(name) || INTERPRETED.contains(name)) {
                continue;
            }
            if (name.equals("securitySchemes") && value.isObject()) {
                o.set(name, SecuritySchemes.schemes(value, v10));
            } else if (name.equals("security") && value.isArray()) {
                if (v10 && !extra.has("securityRequirements")) {
                    o.set("securityRequirements", SecuritySchemes.requirementsTo10(value));
                } else if (!v10) {
                    o.set(name, value);
                }
            } else if (name.equals("securityRequirements") && value.isArray()) {
                if (!v10 && !extra.has("security")) {
                    o.set("security", SecuritySchemes.requirementsTo03(value));
                } else if (v10) {
                    o.set(name, value);
                }
            } else {
                o.set(name, value);
            }
        }
    }

    private static List<AgentInterface> readInterfaces(ObjectNode o, String path) {
        List<AgentInterface> v10 = Fields.list(o, "supportedInterfaces", path, (item, p) -> {
            ObjectNode io = Fields.object(item, p);
            String binding = Fields.string(io, "protocolBinding", p);
            return new AgentInterface(
                    Fields.requiredString(io, "url", p),
                    binding != null ? binding : Fields.string(io, "transport", p),
                    normaliseVersion(Fields.string(io, "protocolVersion", p)),
                    Fields.string(io, "tenant", p));
        });
        if (v10 != null && !v10.isEmpty()) {
            return v10;
        }
        String version = normaliseVersion(Fields.string(o, "protocolVersion", path));
        String v = version == null ? ProtocolVersion.V0_3.label() : version;
        List<AgentInterface> out = new ArrayList<>();
        String url = Fields.string(o, "url", path);
        if (url != null) {
            String transport = Fields.string(o, "preferredTransport", path);
            out.add(new AgentInterface(url, transport == null ? AgentInterface.JSONRPC : transport, v, null));
        }
        List<AgentInterface> additional = Fields.list(o, "additionalInterfaces", path, (item, p) -> {
            ObjectNode io = Fields.object(item, p);
            return new AgentInterface(Fields.requiredString(io, "url", p), Fields.string(io, "transport", p), v, null);
        });
        if (additional != null) {
            additional.stream().filter(i -> !out.contains(i)).forEach(out::add);
        }
        return out;
    }

    /** The interfaces a 0.3 card can name: the 0.3 ones (or version-less), else all of them. */
    private static List<AgentInterface> interfacesFor03(AgentCard card) {
        List<AgentInterface> v03 = card.interfaces().stream()
                .filter(i -> i.protocolVersion() == null || i.protocolVersion().equals(ProtocolVersion.V0_3.label()))
                .toList();
        return v03.isEmpty() ? card.interfaces() : v03;
    }

    private static String binding(AgentInterface i) {
        return i.protocolBinding() == null ? AgentInterface.JSONRPC : i.protocolBinding();
    }

    private static AgentCapabilities readCapabilities(ObjectNode caps, boolean extendedCard03, String path) {
        if (caps == null) {
            return new AgentCapabilities(false, false, extendedCard03, false, List.of());
        }
        return new AgentCapabilities(
                Fields.flag(caps, "streaming", path),
                Fields.flag(caps, "pushNotifications", path),
                Fields.flag(caps, "extendedAgentCard", path) || extendedCard03,
                Fields.flag(caps, "stateTransitionHistory", path),
                Fields.list(caps, "extensions", path, (item, p) -> {
                    ObjectNode e = Fields.object(item, p);
                    return new AgentExtension(
                            Fields.requiredString(e, "uri", p),
                            Fields.string(e, "description", p),
                            Fields.flag(e, "required", p),
                            Fields.objectOrNull(e, "params", p));
                }));
    }

    private static ObjectNode writeCapabilities(AgentCapabilities c, boolean v10) {
        ObjectNode o = Json.object();
        o.put("streaming", c.streaming());
        o.put("pushNotifications", c.pushNotifications());
        if (v10) {
            o.put("extendedAgentCard", c.extendedAgentCard());
        } else if (c.stateTransitionHistory()) {
            o.put("stateTransitionHistory", true);
        }
        ArrayNode extensions = o.putArray("extensions");
        for (AgentExtension e : c.extensions()) {
            ObjectNode eo = extensions.addObject();
            eo.put("uri", e.uri());
            ModelCodec.putString(eo, "description", e.description());
            if (e.required()) {
                eo.put("required", true);
            }
            ModelCodec.putObject(eo, "params", e.params());
        }
        return o;
    }

    private static AgentSkill readSkill(JsonNode json, String path) {
        ObjectNode o = Fields.object(json, path);
        return new AgentSkill(
                Fields.string(o, "id", path),
                Fields.string(o, "name", path),
                Fields.string(o, "description", path),
                Fields.strings(o, "tags", path),
                Fields.strings(o, "examples", path),
                Fields.strings(o, "inputModes", path),
                Fields.strings(o, "outputModes", path));
    }

    private static ObjectNode writeSkill(AgentSkill s) {
        ObjectNode o = Json.object();
        ModelCodec.putString(o, "id", s.id());
        ModelCodec.putString(o, "name", s.name());
        ModelCodec.putString(o, "description", s.description());
        strings(o, "tags", s.tags());
        ModelCodec.putStrings(o, "examples", s.examples());
        ModelCodec.putStrings(o, "inputModes", s.inputModes());
        ModelCodec.putStrings(o, "outputModes", s.outputModes());
        return o;
    }

    /** Required lists: written even when empty. */
    private static void strings(ObjectNode o, String name, List<String> values) {
        ArrayNode a = o.putArray(name);
        values.forEach(a::add);
    }

    private static String camel(String snake) {
        StringBuilder sb = new StringBuilder(snake.length());
        boolean up = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return sb.toString();
    }
}
