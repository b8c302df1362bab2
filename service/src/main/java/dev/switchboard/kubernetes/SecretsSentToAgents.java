package dev.switchboard.kubernetes;

import dev.switchboard.config.ConfigDocument;
import dev.switchboard.config.SecretRef;
import dev.switchboard.config.SlackAppSpec;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Map;
import java.util.Set;

/**
 * Which Secrets of the namespace an AgentBackend's {@code auth.tokenSecretRef} and a Binding's
 * {@code identity.tokenSecretRef} may name. Their value is sent to the url the AgentBackend's author wrote, and
 * Switchboard's own credentials (admin token, API keys, Slack tokens) live in the same namespace: whoever may write an
 * AgentBackend could otherwise have any of them sent to themselves. So only a Secret the operator opted in with the
 * label {@link #LABEL}{@code : "true"} may be named there. A SlackApp's Secrets are Switchboard's own and need no
 * label while its tokens go to Slack's own Web API; a SlackApp whose {@code apiUrl} points elsewhere sends its bot and
 * app tokens there, so those then need the label too (its signing secret is only compared, never sent). A Trigger's
 * token is only compared with what callers send, never sent, and needs none either. The file loader's Secrets are
 * written by the operator and are not judged here.
 */
final class SecretsSentToAgents {

    static final String LABEL = KubernetesWatch.USABLE_BY_BACKENDS_LABEL;

    private SecretsSentToAgents() {}

    /** Whether the Secret carries the opt-in label (the value exactly "true", as Kubernetes labels are strings). */
    static boolean optedIn(Secret s) {
        Map<String, String> labels = s.getMetadata() == null ? null : s.getMetadata().getLabels();
        return labels != null && "true".equals(labels.get(LABEL));
    }

    /**
     * Why the document may not send the Secret it names, or null. Judged on the Secret's name only, before its keys:
     * the status of a resource naming an unlabelled Secret tells nothing of what that Secret holds. A Secret that is
     * not there at all is left to the reference check (SecretNotFound).
     */
    static String problem(ConfigDocument doc, Set<String> present, Set<String> optedIn) {
        if (doc instanceof ConfigDocument.Backend b) {
            return problem("spec.auth.tokenSecretRef", b.spec().tokenSecretRef(), present, optedIn);
        }
        if (doc instanceof ConfigDocument.BindingDoc b) {
            return problem("spec.identity.tokenSecretRef", b.spec().tokenSecretRef(), present, optedIn);
        }
        if (doc instanceof ConfigDocument.SlackApp a && !SlackAppSpec.DEFAULT_API_URL.equals(a.spec().apiUrl())) {
            String bot = problem("spec.botToken.secretRef", a.spec().botToken(), present, optedIn);
            return bot != null ? bot : problem("spec.appToken.secretRef", a.spec().appToken(), present, optedIn);
        }
        return null;
    }

    /** Whether a Secret so named may be sent (a missing one is not a problem of the label). */
    static boolean usable(SecretRef ref, Set<String> present, Set<String> optedIn) {
        return ref == null || !present.contains(ref.name()) || optedIn.contains(ref.name());
    }

    private static String problem(String field, SecretRef ref, Set<String> present, Set<String> optedIn) {
        if (usable(ref, present, optedIn)) {
            return null;
        }
        return field + ".name: Secret '" + ref.name() + "' is not labelled " + LABEL + ": \"true\"; only Secrets with "
                + "that label may be sent to an agent (label it if it holds a credential for this agent: kubectl label "
                + "secret " + ref.name() + " " + LABEL + "=true)";
    }
}
