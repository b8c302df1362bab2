package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.trigger.TriggerFormat;
import dev.switchboard.trigger.TriggerSettings;

/** A Trigger document; defaults and shapes from {@link ResourceSchemas#TRIGGER}. */
final class TriggerReader {

    /** Either rate above this is read as this: more would be no limit at all. */
    private static final int MAX_RATE = 100_000;

    private TriggerReader() {}

    static TriggerSpec read(DocumentLocation doc, JsonNode node) {
        String name = doc.requiredName(node);
        ShapeCheck.enforce(doc, ResourceSchemas.TRIGGER, node);
        if (!name.matches("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")) {
            throw doc.error("metadata.name", "'" + name + "' must be lower-case letters, digits and dashes (it is the "
                    + "last segment of /triggers/<name>)");
        }
        SpecTree spec = SpecTree.spec(doc, ResourceSchemas.TRIGGER, doc.requiredObject(node, "spec"));
        String binding = spec.object("bindingRef").text("name");
        TriggerFormat format = TriggerFormat.of(spec.text("format")).orElseThrow();
        if (!spec.has("tokenSecretRef")) {
            throw spec.error("tokenSecretRef", "is required: callers authenticate with this token "
                    + "(Authorization: Bearer <token>)");
        }
        SecretRef token = spec.secretRef("tokenSecretRef");
        SpecTree rate = spec.object("rateLimit");
        int perMinute = (int) Math.min(MAX_RATE, rate.whole("perMinute"));
        // not in the schema: it follows perMinute
        int burst = (int) Math.min(MAX_RATE, rate.whole("burst", TriggerSettings.defaultBurst(perMinute)));
        return new TriggerSpec(name, binding, format, token, perMinute, burst);
    }
}
