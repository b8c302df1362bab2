package dev.switchboard.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A whole configuration file, validated: cross-references between resources resolve. */
public record SwitchboardConfig(
        ServerSpec server,
        List<AgentBackendSpec> backends,
        List<BindingSpec> bindings,
        Map<String, Map<String, String>> secrets,
        BridgeSettings bridge,
        List<SlackAppSpec> slackApps,
        List<TriggerSpec> triggers) {

    public SwitchboardConfig {
        bridge = bridge == null ? BridgeSettings.DEFAULTS : bridge;
        slackApps = slackApps == null ? List.of() : List.copyOf(slackApps);
        triggers = triggers == null ? List.of() : List.copyOf(triggers);
    }

    public SwitchboardConfig(ServerSpec server, List<AgentBackendSpec> backends, List<BindingSpec> bindings,
            Map<String, Map<String, String>> secrets, BridgeSettings bridge, List<SlackAppSpec> slackApps) {
        this(server, backends, bindings, secrets, bridge, slackApps, List.of());
    }

    /** A configuration with the bridge's default settings. */
    public SwitchboardConfig(ServerSpec server, List<AgentBackendSpec> backends, List<BindingSpec> bindings,
            Map<String, Map<String, String>> secrets) {
        this(server, backends, bindings, secrets, BridgeSettings.DEFAULTS, List.of(), List.of());
    }

    public SwitchboardConfig(ServerSpec server, List<AgentBackendSpec> backends, List<BindingSpec> bindings,
            Map<String, Map<String, String>> secrets, BridgeSettings bridge) {
        this(server, backends, bindings, secrets, bridge, List.of(), List.of());
    }

    public static SwitchboardConfig empty() {
        return new SwitchboardConfig(ServerSpec.defaults(), List.of(), List.of(), Map.of());
    }

    public SwitchboardConfig withServer(ServerSpec newServer) {
        return new SwitchboardConfig(newServer, backends, bindings, secrets, bridge, slackApps, triggers);
    }

    public SwitchboardConfig withBridge(BridgeSettings newBridge) {
        return new SwitchboardConfig(server, backends, bindings, secrets, newBridge, slackApps, triggers);
    }

    public Optional<String> secret(SecretRef ref) {
        return Optional.ofNullable(secrets.get(ref.name())).map(s -> s.get(ref.key()));
    }

    @Override
    public String toString() {
        return "SwitchboardConfig[server=" + server + ", backends=" + backends.size() + ", bindings=" + bindings.size()
                + ", slackApps=" + slackApps.size() + ", triggers=" + triggers.size() + ", secrets=" + secrets.keySet() + "]";
    }
}
