package dev.switchboard.policy;

import dev.switchboard.auth.Caller;
import dev.switchboard.policy.AccessPolicySpec;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.RegisteredAgent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The AccessPolicies in force, compiled, with the labels of the configured agents they select on: immutable, so a
 * reload builds a new one and swaps it whole ({@link AccessControl}). With no policy at all ({@link #OPEN}) every caller
 * may call every agent with any method, as before AccessPolicies existed; with any, a call is refused unless a policy
 * grants its caller, its agent and its method. Policies are tried in name order: the first that grants decides (its
 * name is logged, and its {@code rateLimit} applies).
 *
 * <p>The same policies say who holds the {@code admin} capability (the operator's console beyond loopback): the
 * subjects of a policy with {@code admin: true}. A policy that grants only that ({@code admin} and no methods) is not
 * a gateway policy: it neither grants nor closes anything at the gateway.
 */
public final class Grants {

    public static final Grants OPEN = new Grants(List.of(), List.of(), Map.of());

    private final List<Policy> policies;
    /** The policies with {@code admin: true}, in name order: whose subjects may open the console. */
    private final List<AccessPolicySpec> admins;
    /** Config agents' {@code metadata.labels}, by agent id; registered agents carry none. */
    private final Map<String, Map<String, String>> labels;

    private Grants(List<Policy> policies, List<AccessPolicySpec> admins, Map<String, Map<String, String>> labels) {
        this.policies = List.copyOf(policies);
        this.admins = List.copyOf(admins);
        this.labels = Map.copyOf(labels);
    }

    /** @param labels the configured agents' {@code metadata.labels}, by agent id */
    public static Grants of(List<AccessPolicySpec> specs, Map<String, Map<String, String>> labels) {
        if (specs.isEmpty()) {
            return OPEN;
        }
        List<Policy> policies = new ArrayList<>();
        List<AccessPolicySpec> admins = new ArrayList<>();
        specs.stream().sorted(Comparator.comparing(AccessPolicySpec::name)).forEach(s -> {
            if (!s.adminOnly()) {
                policies.add(new Policy(s));
            }
            if (s.admin()) {
                admins.add(s);
            }
        });
        return new Grants(policies, admins, labels);
    }

    /** No gateway AccessPolicy (console-only ones aside): every call is allowed. */
    public boolean open() {
        return policies.isEmpty();
    }

    /** Whether any policy grants the {@code admin} capability: without one the console asks what it always asked. */
    public boolean anyAdmin() {
        return !admins.isEmpty();
    }

    /** The name of the first policy (in name order) that grants {@code caller} the {@code admin} capability. */
    public java.util.Optional<String> admin(Caller caller) {
        for (AccessPolicySpec p : admins) {
            if (covers(p, caller)) {
                return java.util.Optional.of(p.name());
            }
        }
        return java.util.Optional.empty();
    }

    public int size() {
        return policies.size();
    }

    /**
     * Whether any policy grants {@code caller} some method on {@code agent}: what the gateway decides before it
     * reads a body, and what the registry list and the cards show.
     */
    public Decision agent(Caller caller, RegisteredAgent agent) {
        return decide(caller, agent, null);
    }

    /** Whether a policy grants {@code caller} {@code method} on {@code agent}. */
    public Decision call(Caller caller, RegisteredAgent agent, String method) {
        return decide(caller, agent, method == null ? "" : method);
    }

    public boolean mayCall(Caller caller, RegisteredAgent agent) {
        return agent(caller, agent).allowed();
    }

    private Decision decide(Caller caller, RegisteredAgent agent, String method) {
        if (policies.isEmpty()) {
            return Decision.OPEN;
        }
        Map<String, String> agentLabels = agent.origin() == AgentOrigin.CONFIG
                ? labels.getOrDefault(agent.id(), Map.of()) : Map.of();
        for (Policy p : policies) {
            if (p.grants(caller, agent, agentLabels) && (method == null || p.methods.covers(method))) {
                return new Decision(true, p.spec.name(), p.spec.rateLimit(), null);
            }
        }
        String what = method == null ? "agent " + agent.id() : "method " + method + " on agent " + agent.id();
        return new Decision(false, null, null, "forbidden: caller " + caller.id() + " has no grant for " + what
                + " (no AccessPolicy of " + policies.size() + " grants it)");
    }

    /**
     * What the policies said: allowed or not, the policy that granted (null when none did, or when there are no
     * policies), its rate limit (null: the server's), and the refusal's message naming the missing grant.
     */
    public record Decision(boolean allowed, String policy, CallerLimitSettings.Rate rate, String refusal) {
        static final Decision OPEN = new Decision(true, null, null, null);
    }

    private static final class Policy {
        final AccessPolicySpec spec;
        final MethodNames methods;
        final boolean everyAgent;

        Policy(AccessPolicySpec spec) {
            this.spec = spec;
            this.methods = MethodNames.of(spec.methods());
            this.everyAgent = spec.agentNames().isEmpty() && spec.matchLabels().isEmpty() && spec.skillTags().isEmpty();
        }

        boolean grants(Caller caller, RegisteredAgent agent, Map<String, String> agentLabels) {
            return covers(spec, caller) && (everyAgent || spec.agentNames().contains(agent.id())
                    || (!spec.matchLabels().isEmpty() && agentLabels.entrySet().containsAll(spec.matchLabels().entrySet()))
                    || (!spec.skillTags().isEmpty() && agent.hasAnyTag(spec.skillTags())));
        }
    }

    /** Whether {@code caller} is one of the policy's subjects. */
    private static boolean covers(AccessPolicySpec spec, Caller caller) {
        for (AccessPolicySpec.Subject s : spec.subjects()) {
            if (s instanceof AccessPolicySpec.Subject.ApiKey k) {
                if (caller.kind() == Caller.Kind.API_KEY && caller.id().equals(k.name())) {
                    return true;
                }
            } else if (s instanceof AccessPolicySpec.Subject.Claim c
                    && ClaimMatch.matches(caller.claims(), c.claim(), c.values())) {
                return true;
            }
        }
        return false;
    }
}
