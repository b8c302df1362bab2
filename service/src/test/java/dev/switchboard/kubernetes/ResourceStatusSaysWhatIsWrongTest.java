package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static dev.switchboard.kubernetes.FakeCluster.webBinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.config.ConfigException;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, status: every resource gets a Ready condition. An invalid one says the file loader's own words and
 * takes nothing else down; a bad change keeps the last valid version in force and says so; a reference to what is
 * not there says what is missing, and turns Ready once it is created; a SlackApp added after start says a restart
 * is needed.
 */
@ServerTest
class ResourceStatusSaysWhatIsWrongTest {

    private static final String BAD_URL = """
            apiVersion: switchboard.dev/v1
            kind: AgentBackend
            metadata: {name: broken}
            spec:
              url: not-a-url
            """;

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    @Test
    void anInvalidResourceIsReadyFalseWithTheLoadersMessageAndTheOthersStayReady() {
        cluster.apply(BAD_URL);
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.start();
        TestHttp http = cluster.http();

        JsonNode broken = cluster.awaitReady("AgentBackend", "broken", "False");
        assertThat(broken.path("reason").asText()).isEqualTo("InvalidSpec");
        assertThat(broken.path("message").asText()).isEqualTo("spec.url: 'not-a-url' must be an absolute http or https URL");
        // one implementation: the file loader says the same about the same document
        assertThatThrownBy(() -> new ConfigLoader(Map.of()).parse(BAD_URL, "agents.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("agents.yaml: document 1 (AgentBackend broken): " + broken.path("message").asText());
        assertThat(broken.path("observedGeneration").asLong()).isEqualTo(1);

        assertThat(cluster.awaitReady("AgentBackend", "echo", "True").path("reason").asText()).isEqualTo("Applied");
        assertThat(http.rpc("echo", Rpc.send(1, "hi")).json().has("result")).isTrue();
        assertThat(http.rpc("broken", Rpc.send(2, "hi")).errorMessage()).contains("agent not found");
    }

    @Test
    void aBadChangeKeepsTheLastValidVersionInForceAndSaysSo() {
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.start();
        TestHttp http = cluster.http();
        cluster.awaitReady("AgentBackend", "echo", "True");

        cluster.apply(backend("echo", "ftp://nowhere"));
        JsonNode c = cluster.awaitReady("AgentBackend", "echo", "False");
        assertThat(c.path("message").asText())
                .startsWith("spec.url: 'ftp://nowhere' must be an absolute http or https URL")
                .contains("generation 2 is not applied; generation 1, the last valid one, stays in force");
        assertThat(c.path("observedGeneration").asLong()).isEqualTo(2);
        Reply r = http.rpc("echo", Rpc.send(1, "still there?"));
        assertThat(r.json().has("result")).as(r.text()).isTrue();

        cluster.apply(backend("echo", cluster.agent().url()));
        assertThat(cluster.awaitReady("AgentBackend", "echo", "True").path("observedGeneration").asLong()).isEqualTo(3);
    }

    @Test
    void aMissingBackendOrSecretIsNamedAndCreatingItMakesTheResourceReady() {
        cluster.apply(webBinding("ops", "later"));
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: secured}
                spec:
                  url: %s
                  auth: {tokenSecretRef: {name: secured-token, key: token}}
                """.formatted(cluster.agent().url()));
        cluster.start();
        TestHttp http = cluster.http();

        JsonNode binding = cluster.awaitReady("Binding", "ops", "False");
        assertThat(binding.path("reason").asText()).isEqualTo("BackendNotFound");
        assertThat(binding.path("message").asText()).isEqualTo("spec.backendRef.name: no AgentBackend named 'later'");
        JsonNode secured = cluster.awaitReady("AgentBackend", "secured", "False");
        assertThat(secured.path("reason").asText()).isEqualTo("SecretNotFound");
        assertThat(secured.path("message").asText())
                .isEqualTo("spec.auth.tokenSecretRef.name: no Secret named 'secured-token'");
        assertThat(http.rpc("secured", Rpc.send(1, "hi")).errorMessage()).contains("agent not found");

        cluster.apply(backend("later", cluster.agent().url()));
        cluster.awaitReady("Binding", "ops", "True");
        cluster.backendSecret("secured-token", "token", "a-token-0123456789");
        cluster.awaitReady("AgentBackend", "secured", "True");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("secured is reachable")
                .until(() -> http.rpc("secured", Rpc.send(2, "hi")).json().has("result"));
        assertThat(cluster.agent().recorder().lastRequest().header("Authorization")).isEqualTo("Bearer a-token-0123456789");
    }

    @Test
    void aReferenceToAnInvalidBackendSaysTheBackendExistsButIsNotReady() {
        cluster.apply(BAD_URL);
        cluster.apply(webBinding("ops", "broken"));
        cluster.start();
        JsonNode binding = cluster.awaitReady("Binding", "ops", "False");
        assertThat(binding.path("message").asText()).isEqualTo("spec.backendRef.name: no AgentBackend named 'broken' "
                + "that is in force (AgentBackend 'broken' exists but is not Ready: see its status)");
    }

    @Test
    void aSlackAppAddedAfterStartSaysARestartIsNeeded() {
        cluster.start();
        cluster.secret("slack", "bot", "xoxb-0123456789");
        cluster.secret("slack-signing", "secret", "0123456789abcdef");
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: SlackApp
                metadata: {name: team}
                spec:
                  botToken: {secretRef: {name: slack, key: bot}}
                  signingSecret: {secretRef: {name: slack-signing, key: secret}}
                """);
        JsonNode c = cluster.awaitReady("SlackApp", "team", "False");
        assertThat(c.path("reason").asText()).isEqualTo("RestartRequired");
        assertThat(c.path("message").asText()).contains("read once, at start").contains("restart Switchboard");
    }
}
