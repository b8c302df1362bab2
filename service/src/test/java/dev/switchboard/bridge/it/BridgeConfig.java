package dev.switchboard.bridge.it;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.config.ConfigLoader;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.Map;

/**
 * Builds the YAML configuration of a Switchboard under test, the way an operator writes it (so the
 * config loader is part of what is tested), and starts the service in-process from it.
 */
final class BridgeConfig {

    /** The identity every web backend binding in these tests calls with, unless it uses a token. */
    static final String BOT_USER = "switchboard-bot";
    static final String BINDING_TOKEN = "binding-token-7f3c";
    /** The backend's own (gateway) token: the bridge must not send it next to the binding's identity. */
    static final String BACKEND_TOKEN = "backend-token-91aa";

    private final StringBuilder yaml = new StringBuilder();

    /**
     * The Server resource: listen on an ephemeral port, store in {@code dir}, contract durations
     * shortened for tests, and the web chat's identity rules.
     */
    static BridgeConfig server(Path store, boolean trustForwardedUser, String extraContract) {
        BridgeConfig c = new BridgeConfig();
        c.yaml.append("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                  store: sqlite:%s
                  webChat:
                    trustForwardedUser: %s
                    defaultUser: {id: ada, name: Ada Lovelace, email: ada@example.com}
                  contract:
                    settleDelay: 200ms
                    retryBackoffMax: 1s
                    pollBackoffMax: 1s
                %s
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: tokens}
                stringData: {binding: %s, backend: %s}
                """.formatted(store, trustForwardedUser, indent(extraContract, "    "), BINDING_TOKEN, BACKEND_TOKEN));
        return c;
    }

    /**
     * An AgentBackend (with a static header and its own gateway token) and a web Binding whose one
     * channel has the backend's name; {@code withToken} picks the binding's identity.
     */
    BridgeConfig webAgent(String name, String url, boolean withToken) {
        String identity = withToken ? "{tokenSecretRef: {name: tokens, key: binding}}" : "{userId: " + BOT_USER + "}";
        yaml.append("""
                ---
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: %1$s}
                spec:
                  url: %2$s
                  headers: {X-Team: sre}
                  auth: {tokenSecretRef: {name: tokens, key: backend}}
                ---
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: web-%1$s}
                spec:
                  backendRef: {name: %1$s}
                  chat: {platform: web, channels: [%1$s]}
                  identity: %3$s
                """.formatted(name, url, identity));
        return this;
    }

    String yaml() {
        return yaml.toString();
    }

    SwitchboardApp start(Vertx vertx) {
        return SwitchboardApp.start(vertx, new ConfigLoader(Map.of()).parse(yaml(), "test.yaml")).await();
    }

    private static String indent(String text, String prefix) {
        if (text == null || text.isBlank()) {
            return "";
        }
        return text.strip().lines().map(l -> prefix + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
