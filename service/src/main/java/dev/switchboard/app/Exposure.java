package dev.switchboard.app;

import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.config.BindingSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.net.Addresses;
import java.util.ArrayList;
import java.util.List;

/**
 * Secure by default (O7): a server that listens beyond loopback must ask callers for credentials — API keys
 * for the gateway and registry reads, the admin token for registry writes, and an identity for the web chat
 * (an API key, or a trusted proxy's forwarded user). Without them it refuses to start, unless the operator
 * said {@code insecure}; then it warns at every start.
 */
public final class Exposure {

    private Exposure() {}

    /** What must be set before this configuration may listen where it asks to; empty when nothing is missing. */
    public static List<String> missing(SwitchboardConfig config) {
        ServerSpec s = config.server();
        if (Addresses.isLoopbackOnly(s.host())) {
            return List.of();
        }
        List<String> missing = new ArrayList<>();
        if (s.apiKeys().isEmpty()) {
            missing.add("Server.spec.apiKeys (gateway callers and registry readers)");
        }
        if (s.adminToken() == null) {
            missing.add("Server.spec.adminToken (registry writes)");
        }
        boolean webChat = config.bindings().stream().map(BindingSpec::platform).anyMatch(Platform.WEB::equals);
        if (webChat && s.apiKeys().isEmpty() && config.bridge().webChat().proxies().isEmpty()) {
            missing.add("a web-chat identity: Server.spec.apiKeys or Server.spec.webChat.trustedProxies");
        }
        return missing;
    }

    /** The refusal (or, when insecure, the warning) for a non-empty {@link #missing} list. */
    public static String describe(ServerSpec s, List<String> missing) {
        String where = SwitchboardServer.baseUrl(s.host(), s.port()).replace("http://", "");
        if (s.host().equals("0.0.0.0") || s.host().equals("::")) {
            where = s.host() + ":" + s.port() + " (all interfaces)";
        }
        return (s.insecure() ? "INSECURE: listening on " + where + " without " : "refusing to listen on " + where
                + " without ") + String.join(", ", missing)
                + (s.insecure() ? "; anyone who can reach this address can use every agent"
                        : ". Set them, listen on 127.0.0.1, or set Server.spec.insecure: true (--insecure) if you mean it");
    }
}
