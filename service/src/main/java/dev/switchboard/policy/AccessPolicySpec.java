package dev.switchboard.policy;

import java.util.List;
import java.util.Map;

/**
 * An {@code AccessPolicy} resource: who ({@code subjects}) may call which agents ({@code agents}) with which methods.
 * An agent is granted when it matches any of {@code agentNames}, {@code matchLabels} (all of them, on the
 * AgentBackend's {@code metadata.labels}) or {@code skillTags} (any of them, on the agent's skills); a policy with
 * none of the three grants every agent.
 *
 * @param rateLimit per caller × agent for the agents this policy grants, in place of
 *     {@code Server.spec.gateway.callerLimits.perAgent}; null: the server's
 * @param admin whether the subjects also hold the {@code admin} capability: the operator's console
 *     ({@code /console/api/}) beyond loopback, as the admin token opens it. A policy with {@code admin} and no
 *     {@code methods} grants the console only ({@link #adminOnly()}) and is no gateway policy at all
 */
public record AccessPolicySpec(String name, List<Subject> subjects, List<String> agentNames,
        Map<String, String> matchLabels, List<String> skillTags, List<String> methods, CallerLimitSettings.Rate rateLimit,
        boolean admin) {

    public AccessPolicySpec {
        subjects = List.copyOf(subjects);
        agentNames = List.copyOf(agentNames);
        matchLabels = Map.copyOf(matchLabels);
        skillTags = List.copyOf(skillTags);
        methods = List.copyOf(methods);
    }

    /** A policy of gateway grants only (no {@code admin}). */
    public AccessPolicySpec(String name, List<Subject> subjects, List<String> agentNames, Map<String, String> matchLabels,
            List<String> skillTags, List<String> methods, CallerLimitSettings.Rate rateLimit) {
        this(name, subjects, agentNames, matchLabels, skillTags, methods, rateLimit, false);
    }

    /**
     * Grants the console and no gateway call: it does not count among the gateway's policies, so adding it to a
     * server without AccessPolicies leaves every caller's calls as they were.
     */
    public boolean adminOnly() {
        return admin && methods.isEmpty();
    }

    /** A policy that grants nothing: what an AccessPolicy stands for while it is not valid (the gateway fails closed). */
    public static AccessPolicySpec grantsNothing(String name) {
        // not admin: an invalid policy still counts as a gateway policy, so the gateway fails closed
        return new AccessPolicySpec(name, List.of(), List.of(), Map.of(), List.of(), List.of(), null, false);
    }

    /** One kind of caller: an API key by its name, or callers whose JWT claim holds any of the values. */
    public sealed interface Subject {
        record ApiKey(String name) implements Subject {}

        record Claim(String claim, List<String> values) implements Subject {
            public Claim {
                values = List.copyOf(values);
            }
        }
    }
}
