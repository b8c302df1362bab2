package dev.switchboard.config;

import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.policy.AccessPolicySpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks between resources, which no one document can make: names defined once, references that resolve
 * (backends, bindings, apps, secrets and their keys), a channel bound once, the tokens' shapes. The file loader refuses a
 * file on the first problem; the Kubernetes watch marks each resource that has one.
 */
final class CrossReferences {

    private CrossReferences() {}

    /**
     * The checks between resources, on a snapshot of all of them: names defined once, references that resolve
     * (backends, bindings, apps, secrets and their keys), a channel bound once, token shapes. Every resource gets
     * at most one problem (its first), in the order the file loader reports them; the file loader refuses the
     * file on the first, the Kubernetes watch marks each resource that has one.
     */
    static List<ConfigDocument.Problem> check(SwitchboardConfig config) {
        List<ConfigDocument.Problem> problems = new ArrayList<>();
        Map<String, Map<String, String>> secrets = config.secrets();
        Set<String> backendNames = new HashSet<>();
        for (AgentBackendSpec b : config.backends()) {
            String problem = !backendNames.add(b.name()) ? "metadata.name: defined twice"
                    : secretProblem("spec.auth.tokenSecretRef", b.tokenSecretRef(), secrets);
            add(problems, "AgentBackend", b.name(), problem);
        }
        Set<String> channels = new HashSet<>();
        for (BindingSpec b : config.bindings()) {
            String problem = null;
            if (!backendNames.contains(b.backendRef())) {
                problem = "spec.backendRef.name: no AgentBackend named '" + b.backendRef() + "'";
            }
            if (problem == null) {
                problem = secretProblem("spec.identity.tokenSecretRef", b.tokenSecretRef(), secrets);
            }
            if (problem == null) {
                for (String c : b.channels()) {
                    if (!channels.add(b.platform().configName() + "/" + (b.app() == null ? "" : b.app()) + "/" + c)) {
                        problem = "spec.chat.channels: channel '" + c + "' is already bound by another Binding";
                        break;
                    }
                }
            }
            add(problems, "Binding", b.name(), problem);
        }
        add(problems, "Server", null, secretProblem("spec.storePasswordSecretRef", config.server().storePasswordSecretRef(),
                secrets));
        Set<String> appNames = new HashSet<>();
        for (SlackAppSpec a : config.slackApps()) {
            String problem = !appNames.add(a.name()) ? "metadata.name: defined twice" : null;
            if (problem == null) {
                problem = firstOf(secretProblem("spec.botToken.secretRef", a.botToken(), secrets),
                        secretProblem("spec.signingSecret.secretRef", a.signingSecret(), secrets),
                        secretProblem("spec.appToken.secretRef", a.appToken(), secrets));
            }
            if (problem == null) {
                problem = firstOf(tokenShapeProblem("spec.botToken", a.botToken(), "xoxb-", secrets),
                        tokenShapeProblem("spec.appToken", a.appToken(), "xapp-", secrets));
            }
            add(problems, "SlackApp", a.name(), problem);
        }
        for (BindingSpec b : config.bindings()) {
            if (b.app() != null && !appNames.contains(b.app())) {
                add(problems, "Binding", b.name(), "spec.chat.app: no SlackApp named '" + b.app() + "'");
            }
        }
        Set<String> triggerNames = new HashSet<>();
        for (TriggerSpec t : config.triggers()) {
            add(problems, "Trigger", t.name(), triggerProblem(t, triggerNames, config.bindings(), secrets));
        }
        Set<String> policyNames = new HashSet<>();
        Set<String> keyNames = new HashSet<>();
        config.server().apiKeys().forEach(k -> keyNames.add(k.name()));
        for (AccessPolicySpec p : config.policies()) {
            add(problems, "AccessPolicy", p.name(), policyProblem(p, policyNames, keyNames));
        }
        return List.copyOf(problems);
    }

    /** A key name that is not a key is a typo that would grant no one: said, not ignored. */
    private static String policyProblem(AccessPolicySpec p, Set<String> names, Set<String> keyNames) {
        if (!names.add(p.name())) {
            return "metadata.name: defined twice";
        }
        for (int i = 0; i < p.subjects().size(); i++) {
            if (p.subjects().get(i) instanceof AccessPolicySpec.Subject.ApiKey k && !keyNames.contains(k.name())) {
                return "spec.subjects[" + i + "].apiKey: no API key named '" + k.name() + "' in Server.spec.apiKeys";
            }
        }
        return null;
    }

    private static void add(List<ConfigDocument.Problem> problems, String kind, String name, String detail) {
        if (detail != null) {
            problems.add(new ConfigDocument.Problem(kind, name, detail));
        }
    }

    private static String firstOf(String... problems) {
        for (String p : problems) {
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    private static String triggerProblem(TriggerSpec t, Set<String> names, List<BindingSpec> bindings,
            Map<String, Map<String, String>> secrets) {
        if (!names.add(t.name())) {
            return "metadata.name: defined twice";
        }
        BindingSpec b = bindings.stream().filter(x -> x.name().equals(t.bindingRef())).findFirst().orElse(null);
        if (b == null) {
            return "spec.bindingRef.name: no Binding named '" + t.bindingRef() + "'";
        }
        if (b.platform() == Platform.SLACK && b.channels().get(0).equals("im")) {
            return "spec.bindingRef.name: Binding '" + b.name()
                    + "' lists im (direct messages) first; a trigger posts in the Binding's first channel, so list a "
                    + "channel id first";
        }
        String missing = secretProblem("spec.tokenSecretRef", t.tokenSecretRef(), secrets);
        if (missing != null) {
            return missing;
        }
        String token = secrets.get(t.tokenSecretRef().name()).get(t.tokenSecretRef().key());
        if (token.isBlank()) {
            return "spec.tokenSecretRef: Secret '" + t.tokenSecretRef().name()
                    + "' key '" + t.tokenSecretRef().key() + "' is empty; a trigger needs a token";
        }
        if (token.length() < 16) {
            return "spec.tokenSecretRef: Secret '" + t.tokenSecretRef().name()
                    + "' key '" + t.tokenSecretRef().key() + "' must hold at least 16 characters (use a random value)";
        }
        return null;
    }

    /** A bot token where the app token belongs (or the reverse) is the commonest slip; the message never shows the value. */
    private static String tokenShapeProblem(String field, SecretRef ref, String prefix,
            Map<String, Map<String, String>> secrets) {
        if (ref == null) {
            return null;
        }
        String value = secrets.get(ref.name()).get(ref.key());
        if (!value.startsWith(prefix)) {
            return field + ": Secret '" + ref.name() + "' key '" + ref.key()
                    + "' does not hold a token starting with " + prefix;
        }
        return null;
    }

    private static String secretProblem(String field, SecretRef ref, Map<String, Map<String, String>> secrets) {
        if (ref == null) {
            return null;
        }
        Map<String, String> s = secrets.get(ref.name());
        if (s == null) {
            return field + ".name: no Secret named '" + ref.name() + "'";
        }
        if (!s.containsKey(ref.key())) {
            return field + ".key: Secret '" + ref.name() + "' has no key '" + ref.key() + "'";
        }
        return null;
    }
}
