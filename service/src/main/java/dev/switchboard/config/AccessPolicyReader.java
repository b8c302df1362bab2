package dev.switchboard.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.policy.AccessPolicySpec;
import dev.switchboard.policy.CallerLimitSettings;
import java.util.ArrayList;
import java.util.List;

/** An AccessPolicy document; defaults and shapes from {@link ResourceSchemas#ACCESS_POLICY}. */
final class AccessPolicyReader {

    private AccessPolicyReader() {}

    /** {@code rateLimit} and {@code callerLimits.perAgent}: burst defaults to the rate, at least 1. */
    static CallerLimitSettings.Rate rate(SpecTree r) {
        double rate = r.fraction("rate");
        long burst = r.whole("burst", Math.max(1, (long) Math.ceil(rate)));
        return new CallerLimitSettings.Rate(rate, (int) Math.min(1_000_000, burst));
    }

    static AccessPolicySpec read(DocumentLocation doc, JsonNode node) {
        String name = doc.requiredName(node);
        ShapeCheck.enforce(doc, ResourceSchemas.ACCESS_POLICY, node);
        SpecTree spec = SpecTree.spec(doc, ResourceSchemas.ACCESS_POLICY, doc.requiredObject(node, "spec"));
        List<AccessPolicySpec.Subject> subjects = new ArrayList<>();
        for (SpecTree s : spec.items("subjects")) {
            if (s.has("apiKey") == s.has("claim")) {
                throw s.error("needs exactly one of apiKey and claim");
            }
            if (s.has("apiKey")) {
                subjects.add(new AccessPolicySpec.Subject.ApiKey(s.text("apiKey").trim()));
            } else {
                if (!s.has("values")) {
                    throw s.error("values", "is required with claim: the values any of which the claim must hold");
                }
                subjects.add(new AccessPolicySpec.Subject.Claim(s.text("claim").trim(), s.trimmedTexts("values")));
            }
        }
        if (subjects.isEmpty()) {
            throw spec.error("subjects", "is required: at least one subject (apiKey or claim)");
        }
        SpecTree agents = spec.object("agents");
        List<String> methods = spec.trimmedTexts("methods");
        boolean admin = spec.flag("admin");
        if (!spec.has("methods") && !admin) {
            throw spec.error("methods", "is required: the methods granted (or admin: true for a console-only policy)");
        }
        CallerLimitSettings.Rate rate = null;
        if (spec.has("rateLimit")) {
            SpecTree r = spec.object("rateLimit");
            rate = rate(r);
        }
        return new AccessPolicySpec(name, subjects, agents.trimmedTexts("names"),
                agents.object("selector").textMap("matchLabels"), agents.trimmedTexts("skillTags"), methods, rate, admin);
    }
}
