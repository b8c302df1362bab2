package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bridge.engine.Dialect;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Invalid configuration stops the start with a message naming the document, the field and the problem. */
class ConfigValidationTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of("ECHO_TOKEN", "s3cret-token-value", "KEY", "k-0123456789abcdef"));

    private static final String BACKEND = """
            apiVersion: switchboard.dev/v1
            kind: AgentBackend
            metadata: {name: echo}
            spec:
              url: http://127.0.0.1:9999/
            """;

    @Test
    void readsAFullConfiguration() {
        SwitchboardConfig c = loader.parse("""
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: echo, namespace: team}
                spec:
                  url: http://127.0.0.1:9999/
                  dialect: kagent-v1
                  headers: {X-Team: sre}
                  auth: {tokenSecretRef: {name: echo-token, key: token}}
                  limits: {maxConcurrency: 7, defaultTimeoutSeconds: 30, maxTimeoutSeconds: 60}
                  skills: [{id: echo, name: Echo, tags: [demo]}]
                ---
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: web-echo}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: web, channels: [echo]}
                  identity: {userId: switchboard}
                  questions: {allowed: false, timeout: 10m}
                ---
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:9090
                  apiKeys: [{name: ci-bot, key: "${KEY}"}]
                  callerIdHeader: X-KubeMQ-Caller-ID
                  registrationTtl: 2m
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: echo-token}
                stringData: {token: "${ECHO_TOKEN}"}
                """, "test.yaml");
        AgentBackendSpec b = c.backends().get(0);
        assertThat(b.dialect()).isEqualTo(Dialect.KAGENT_V1);
        assertThat(b.agentRefNamespace()).isEqualTo("team");
        assertThat(b.limits().maxConcurrency()).isEqualTo(7);
        assertThat(b.limits().maxResponseBytes()).isEqualTo(10L * 1024 * 1024);
        assertThat(c.secret(b.tokenSecretRef())).contains("s3cret-token-value");
        assertThat(c.bindings().get(0).questionTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(c.server().port()).isEqualTo(9090);
        assertThat(c.server().callerIdHeader()).isEqualTo("X-KubeMQ-Caller-ID");
        assertThat(c.server().registrationTtl()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.server().apiKeys()).singleElement().satisfies(k -> assertThat(k.name()).isEqualTo("ci-bot"));
    }

    @Test
    void secretsNeverShowInToStrings() {
        SwitchboardConfig c = loader.parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  adminToken: admin-token-value-123
                  apiKeys: [{name: ci-bot, key: "${KEY}"}]
                """, "t.yaml");
        assertThat(c.toString()).doesNotContain("admin-token-value-123").doesNotContain("k-0123456789abcdef");
    }

    @Test
    void namesTheDocumentAndFieldOfABadUrl() {
        assertError(BACKEND.replace("http://127.0.0.1:9999/", "not-a-url"),
                "document 1 (AgentBackend echo): spec.url", "absolute http or https URL");
    }

    @Test
    void rejectsAMissingUrl() {
        assertError(BACKEND.replace("  url: http://127.0.0.1:9999/\n", "  dialect: a2a\n"), "spec.url", "is required");
    }

    @Test
    void rejectsAnInvalidAgentName() {
        assertError(BACKEND.replace("name: echo", "name: Echo_Agent"), "metadata.name", "not a valid agent id");
    }

    @Test
    void rejectsAnUnknownDialect() {
        assertError(BACKEND + "  dialect: grpc\n", "spec.dialect", "not a dialect");
    }

    @Test
    void rejectsNonPositiveOrNonNumericLimits() {
        assertError(BACKEND + "  limits: {maxConcurrency: 0}\n", "spec.limits.maxConcurrency", "greater than 0");
        assertError(BACKEND + "  limits: {maxConcurrency: lots}\n", "spec.limits.maxConcurrency", "whole number");
        assertError(BACKEND + "  limits: {defaultTimeoutSeconds: 100, maxTimeoutSeconds: 10}\n",
                "spec.limits.defaultTimeoutSeconds", "above maxTimeoutSeconds");
    }

    @Test
    void rejectsAnUnknownKind() {
        assertError("apiVersion: v1\nkind: Deployment\nmetadata: {name: x}\n", "document 1", "unknown kind 'Deployment'");
    }

    @Test
    void rejectsAnUnsetEnvironmentVariableButAllowsADefault() {
        assertError("kind: Server\nspec: {adminToken: \"${NOPE}\"}\n", "spec.adminToken", "NOPE is not set");
        assertThat(loader.parse("kind: Server\nspec: {adminToken: \"${NOPE:-}\"}\n", "t").server().adminToken()).isNull();
    }

    @Test
    void rejectsABindingToAnUnknownBackend() {
        assertError("""
                kind: Binding
                metadata: {name: b}
                spec:
                  backendRef: {name: ghost}
                  chat: {platform: web, channels: [c]}
                  identity: {userId: u}
                """, "Binding b: spec.backendRef.name", "no AgentBackend named 'ghost'");
    }

    @Test
    void rejectsABindingWithBothOrNoIdentity() {
        assertError(BACKEND + """
                ---
                kind: Binding
                metadata: {name: b}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: web, channels: [c]}
                  identity: {}
                """, "spec.identity", "exactly one of userId and tokenSecretRef");
    }

    @Test
    void rejectsAReferenceToAMissingSecretKey() {
        assertError(BACKEND + "  auth: {tokenSecretRef: {name: s, key: token}}\n---\nkind: Secret\nmetadata: {name: s}\n"
                + "stringData: {other: x}\n", "spec.auth.tokenSecretRef.key", "has no key 'token'");
    }

    @Test
    void rejectsABadListenAddressAndShortApiKeys() {
        assertError("kind: Server\nspec: {listen: 8080}\n", "spec.listen", "must be host:port");
        assertError("kind: Server\nspec: {apiKeys: [{name: a, key: short}]}\n", "spec.apiKeys[0].key", "at least 16");
    }

    @Test
    void rejectsInvalidYaml() {
        assertError("kind: [unclosed\n", "t.yaml", "not valid YAML");
    }

    @Test
    void rejectsTheSameChannelBoundTwice() {
        String binding = """
                ---
                kind: Binding
                metadata: {name: NAME}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: web, channels: [same]}
                  identity: {userId: u}
                """;
        assertError(BACKEND + binding.replace("NAME", "a") + binding.replace("NAME", "b"),
                "Binding b: spec.chat.channels", "already bound");
    }

    private void assertError(String yaml, String... fragments) {
        assertThatThrownBy(() -> loader.parse(yaml, "t.yaml"))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(fragments));
    }
}
