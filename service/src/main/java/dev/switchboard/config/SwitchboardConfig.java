package dev.switchboard.config;

import dev.switchboard.policy.AccessPolicySpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A whole configuration file, validated: cross-references between resources resolve. Built with the one constructor,
 * or from {@link #empty()} with the {@code withX} methods.
 */
public record SwitchboardConfig(
        ServerSpec server,
        List<AgentBackendSpec> backends,
        List<BindingSpec> bindings,
        Map<String, Map<String, String>> secrets,
        BridgeSettings bridge,
        List<SlackAppSpec> slackApps,
        List<TriggerSpec> triggers,
        List<AccessPolicySpec> policies) {

    public SwitchboardConfig {
        bridge = bridge == null ? BridgeSettings.DEFAULTS : bridge;
        slackApps = slackApps == null ? List.of() : List.copyOf(slackApps);
        triggers = triggers == null ? List.of() : List.copyOf(triggers);
        policies = policies == null ? List.of() : List.copyOf(policies);
    }

    /** Without AccessPolicies. */
    public SwitchboardConfig(ServerSpec server, List<AgentBackendSpec> backends, List<BindingSpec> bindings,
            Map<String, Map<String, String>> secrets, BridgeSettings bridge, List<SlackAppSpec> slackApps,
            List<TriggerSpec> triggers) {
        this(server, backends, bindings, secrets, bridge, slackApps, triggers, List.of());
    }

    public static SwitchboardConfig empty() {
        return new SwitchboardConfig(ServerSpec.defaults(), List.of(), List.of(), Map.of(), BridgeSettings.DEFAULTS,
                List.of(), List.of(), List.of());
    }

    public SwitchboardConfig withPolicies(List<AccessPolicySpec> newPolicies) {
        return new SwitchboardConfig(server, backends, bindings, secrets, bridge, slackApps, triggers, newPolicies);
    }

    public SwitchboardConfig withServer(ServerSpec newServer) {
        return new SwitchboardConfig(newServer, backends, bindings, secrets, bridge, slackApps, triggers, policies);
    }

    public SwitchboardConfig withBackends(List<AgentBackendSpec> newBackends) {
        return new SwitchboardConfig(server, newBackends, bindings, secrets, bridge, slackApps, triggers, policies);
    }

    public SwitchboardConfig withBindings(List<BindingSpec> newBindings) {
        return new SwitchboardConfig(server, backends, newBindings, secrets, bridge, slackApps, triggers, policies);
    }

    public SwitchboardConfig withSecrets(Map<String, Map<String, String>> newSecrets) {
        return new SwitchboardConfig(server, backends, bindings, newSecrets, bridge, slackApps, triggers, policies);
    }

    public SwitchboardConfig withBridge(BridgeSettings newBridge) {
        return new SwitchboardConfig(server, backends, bindings, secrets, newBridge, slackApps, triggers, policies);
    }

    public SwitchboardConfig withSlackApps(List<SlackAppSpec> newSlackApps) {
        return new SwitchboardConfig(server, backends, bindings, secrets, bridge, newSlackApps, triggers, policies);
    }

    public SwitchboardConfig withTriggers(List<TriggerSpec> newTriggers) {
        return new SwitchboardConfig(server, backends, bindings, secrets, bridge, slackApps, newTriggers, policies);
    }

    /** The AgentBackends' {@code metadata.labels}, by agent id: what AccessPolicy selectors match. */
    public Map<String, Map<String, String>> backendLabels() {
        Map<String, Map<String, String>> out = new java.util.HashMap<>();
        backends.forEach(b -> out.put(b.name(), b.labels()));
        return Map.copyOf(out);
    }

    public Optional<String> secret(SecretRef ref) {
        return Optional.ofNullable(secrets.get(ref.name())).map(s -> s.get(ref.key()));
    }

    @Override
    public String toString() {
        return "SwitchboardConfig[server=" + server + ", backends=" + backends.size() + ", bindings=" + bindings.size()
                + ", slackApps=" + slackApps.size() + ", triggers=" + triggers.size() + ", policies=" + policies.size() + ", secrets=" + secrets.keySet() + "]";
    }
}
