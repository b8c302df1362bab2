package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.chat.slack.SlackMode;
import dev.switchboard.chat.slack.SlackStreaming;

/** A SlackApp document; defaults and shapes from {@link ResourceSchemas#SLACK_APP}. */
final class SlackAppReader {

    private SlackAppReader() {}

    static SlackAppSpec read(DocumentLocation doc, JsonNode node) {
        String name = doc.requiredName(node);
        ShapeCheck.enforce(doc, ResourceSchemas.SLACK_APP, node);
        SpecTree spec = SpecTree.spec(doc, ResourceSchemas.SLACK_APP, doc.requiredObject(node, "spec"));
        SlackMode mode = spec.text("mode").equals("socket") ? SlackMode.SOCKET : SlackMode.EVENTS;
        // each token's "is required" says which token it is, and when
        SecretRef botToken = token(spec, "botToken");
        if (botToken == null) {
            throw doc.error("spec.botToken.secretRef", "is required (the bot token, xoxb-…)");
        }
        SecretRef signing = token(spec, "signingSecret");
        SecretRef appToken = token(spec, "appToken");
        if (mode == SlackMode.EVENTS && signing == null) {
            throw doc.error("spec.signingSecret.secretRef", "is required in events mode (requests are verified with it)");
        }
        if (mode == SlackMode.SOCKET && appToken == null) {
            throw doc.error("spec.appToken.secretRef", "is required in socket mode (the app-level token, xapp-…)");
        }
        String apiUrl = spec.text("apiUrl");
        HttpUrls.check(doc, "spec.apiUrl", apiUrl);
        return new SlackAppSpec(name, mode, botToken, signing, appToken, apiUrl.endsWith("/") ? apiUrl : apiUrl + "/",
                SlackStreaming.of(spec.text("streaming")));
    }

    /** {@code {secretRef: {name, key}}}, or null when the token or its secretRef is left out. */
    private static SecretRef token(SpecTree spec, String field) {
        if (!spec.has(field)) {
            return null;
        }
        SpecTree wrapper = spec.object(field);
        return wrapper.has("secretRef") ? wrapper.secretRef("secretRef") : null;
    }
}
