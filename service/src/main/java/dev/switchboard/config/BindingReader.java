package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.engine.Platform;
import java.util.List;

/** A Binding document; defaults and shapes from {@link ResourceSchemas#BINDING}. */
final class BindingReader {

    private BindingReader() {}

    static BindingSpec read(DocumentLocation doc, JsonNode node) {
        String name = doc.requiredName(node);
        ShapeCheck.enforce(doc, ResourceSchemas.BINDING, node);
        SpecTree spec = SpecTree.spec(doc, ResourceSchemas.BINDING, doc.requiredObject(node, "spec"));
        String backend = spec.object("backendRef").text("name");
        SpecTree chat = spec.object("chat");
        Platform platform = Platform.fromConfig(chat.text("platform"));
        List<String> channels = chat.has("channels") ? chat.texts("channels") : List.of();
        if (channels.isEmpty()) {
            throw chat.error("channels", "list at least one channel");
        }
        String app = null;
        if (platform == Platform.SLACK) {
            app = chat.text("app");
            if (app == null || app.isBlank()) {
                throw chat.error("app", app == null ? "is required" : "must be a non-empty string");
            }
            for (String c : channels) {
                // a Slack channel id (C…, G… for private channels) or "im" for direct messages; a name would never match
                if (!c.equals("im") && !c.matches("[CG][A-Z0-9]{2,}")) {
                    throw chat.error("channels", "'" + c + "' is not a Slack channel id (like C0123ABCD) or im");
                }
            }
        } else if (chat.has("app")) {
            throw chat.error("app", "only a slack Binding names an app");
        }
        // the schema's required identity and its exactly-one rule, in one message that says what to write
        if (!spec.has("identity")) {
            throw spec.error("identity", "set exactly one of userId and tokenSecretRef");
        }
        SpecTree identity = spec.object("identity");
        String userId = identity.text("userId");
        SecretRef token = identity.secretRef("tokenSecretRef");
        if ((userId == null) == (token == null)) {
            throw spec.error("identity", "set exactly one of userId and tokenSecretRef");
        }
        SpecTree q = spec.object("questions");
        return new BindingSpec(name, backend, platform, app, channels, userId, token, q.flag("allowed"),
                q.span("timeout"), approvers(q, platform), allowedUsers(spec, platform), feedbackToAgent(spec, platform));
    }

    /** spec.feedback.sendToAgent: only Slack shows feedback buttons. */
    private static boolean feedbackToAgent(SpecTree spec, Platform platform) {
        if (!spec.has("feedback")) {
            return false;
        }
        if (platform != Platform.SLACK) {
            throw spec.error("feedback", "only a slack Binding has feedback (its answers' 👍/👎 buttons)");
        }
        return spec.object("feedback").flag("sendToAgent");
    }

    /** spec.allowedUsers: Slack user and user-group ids, on a slack Binding only; absent is anyone. */
    private static List<String> allowedUsers(SpecTree chat, Platform platform) {
        if (!chat.has("allowedUsers")) {
            return List.of();
        }
        if (platform != Platform.SLACK) {
            throw chat.error("allowedUsers", "only a slack Binding names allowed users (Slack user and user-group ids)");
        }
        List<String> out = chat.texts("allowedUsers");
        for (String a : out) {
            if (!a.matches(BindingSpec.APPROVER_PATTERN)) {
                throw chat.error("allowedUsers", "'" + a + "' is not a Slack user id (like U0123ABCD) or user-group id "
                        + "(like S0123ABCD)");
            }
        }
        return out;
    }

    /** spec.questions.approvers: Slack user and user-group ids, on a slack Binding only; absent is none named. */
    private static List<String> approvers(SpecTree questions, Platform platform) {
        if (!questions.has("approvers")) {
            return List.of();
        }
        if (platform != Platform.SLACK) {
            throw questions.error("approvers", "only a slack Binding names approvers (Slack user and user-group ids)");
        }
        List<String> out = questions.texts("approvers");
        if (out.isEmpty()) {
            throw questions.error("approvers", "list at least one approver, or leave approvers out");
        }
        for (String a : out) {
            if (!a.matches(BindingSpec.APPROVER_PATTERN)) {
                throw questions.error("approvers", "'" + a + "' is not a Slack user id (like U0123ABCD) or user-group id "
                        + "(like S0123ABCD)");
            }
        }
        return out;
    }
}
