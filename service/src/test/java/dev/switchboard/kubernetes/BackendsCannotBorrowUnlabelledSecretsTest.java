package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static dev.switchboard.kubernetes.FakeCluster.webBinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Threat (security, M5): whoever may write an AgentBackend or a Binding in Switchboard's namespace names a Secret
 * there that is not theirs (Switchboard's own credentials: the admin token, the API keys, the Slack tokens) as its
 * bearer token, points the url at themselves, and receives the Secret's value on the next call. Only a Secret that
 * carries the opt-in label {@code switchboard.dev/usable-by-backends: "true"} may be named by an AgentBackend's
 * {@code auth.tokenSecretRef} or a Binding's {@code identity.tokenSecretRef}: one naming another Secret says Ready=False
 * {@code SecretNotUsable} naming the label (and never whether the Secret has the key), is not in force, and nothing is
 * sent with it; taking the label off takes it out of force again. A SlackApp's Secrets are Switchboard's own and a
 * Trigger's token is only compared with what callers send, never sent: they need no label. (In the threat's
 * package's spirit, kept here: it needs the cluster of {@link FakeCluster}.)
 */
@ServerTest
class BackendsCannotBorrowUnlabelledSecretsTest {

    private static final String ADMIN_TOKEN = "the-admin-token-of-switchboard-0123456789";
    private static final String LABEL = "switchboard.dev/usable-by-backends";

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo")
            .withSlack(FakeSlackOptions.defaults().withTokens("xoxb-own-bot-token-5a1e", "xapp-unused-app-token-0001"));

    @Test
    void anAgentBackendNamingAnUnlabelledSecretIsNotInForceAndNothingIsSentWithIt() {
        cluster.secret("switchboard-credentials", "admin-token", ADMIN_TOKEN);
        cluster.apply(borrowing("thief", "switchboard-credentials", "admin-token"));
        cluster.apply(borrowing("thief-guessing", "switchboard-credentials", "no-such-key"));
        cluster.start();
        TestHttp http = cluster.http();

        JsonNode thief = cluster.awaitReady("AgentBackend", "thief", "False");
        assertThat(thief.path("reason").asText()).isEqualTo("SecretNotUsable");
        assertThat(thief.path("message").asText()).contains("spec.auth.tokenSecretRef", "'switchboard-credentials'",
                LABEL + ": \"true\"");
        // the same words whether the key is there or not: the status tells nothing of an unlabelled Secret's content
        JsonNode guessing = cluster.awaitReady("AgentBackend", "thief-guessing", "False");
        assertThat(guessing.path("reason").asText()).isEqualTo("SecretNotUsable");
        assertThat(guessing.path("message").asText()).doesNotContain("no-such-key").doesNotContain("has no key");
        assertThat(http.rpc("thief", Rpc.send(1, "hi")).errorMessage()).contains("agent not found");
        assertThat(http.get("/a2a/thief/.well-known/agent-card.json").status()).isEqualTo(404);
        assertNeverSent(ADMIN_TOKEN);

        // the operator opts a Secret in: then it is used, from the next reconcile on
        cluster.backendSecret("echo-token", "token", "the-echo-token-0123456789");
        cluster.apply(borrowing("echo", "echo-token", "token"));
        cluster.awaitReady("AgentBackend", "echo", "True");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("echo is reachable")
                .until(() -> http.rpc("echo", Rpc.send(2, "hi")).json().has("result"));
        assertThat(cluster.agent().recorder().lastRequest().header("Authorization"))
                .isEqualTo("Bearer the-echo-token-0123456789");
        assertNeverSent(ADMIN_TOKEN);
    }

    @Test
    void takingTheLabelOffTakesTheBackendOutOfForce() {
        cluster.backendSecret("echo-token", "token", "the-echo-token-0123456789");
        cluster.apply(borrowing("echo", "echo-token", "token"));
        cluster.start();
        TestHttp http = cluster.http();
        cluster.awaitReady("AgentBackend", "echo", "True");
        assertThat(http.rpc("echo", Rpc.send(1, "hi")).json().has("result")).isTrue();

        cluster.secret("echo-token", "token", "the-echo-token-0123456789"); // the same Secret, its label gone
        JsonNode c = cluster.awaitReady("AgentBackend", "echo", "False");
        assertThat(c.path("reason").asText()).isEqualTo("SecretNotUsable");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("echo is out of force")
                .until(() -> http.rpc("echo", Rpc.send(2, "hi")).errorMessage().contains("agent not found"));

        // labelled again it is back; a label saying anything but "true" does not opt in
        cluster.backendSecret("echo-token", "token", "the-echo-token-0123456789");
        cluster.awaitReady("AgentBackend", "echo", "True");
        cluster.secret("echo-token", "token", "the-echo-token-0123456789", java.util.Map.of(LABEL, "yes"));
        assertThat(cluster.awaitReady("AgentBackend", "echo", "False").path("reason").asText())
                .isEqualTo("SecretNotUsable");
    }

    @Test
    void aBindingWhoseIdentityNamesAnUnlabelledSecretIsNotInForce() throws Exception {
        cluster.secret("switchboard-credentials", "admin-token", ADMIN_TOKEN);
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: ops}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: web, channels: [ops]}
                  identity: {tokenSecretRef: {name: switchboard-credentials, key: admin-token}}
                """);
        cluster.apply(webBinding("plain", "echo"));
        ChatApi chat = new ChatApi(cluster.start().app().baseUrl());

        JsonNode ops = cluster.awaitReady("Binding", "ops", "False");
        assertThat(ops.path("reason").asText()).isEqualTo("SecretNotUsable");
        assertThat(ops.path("message").asText()).contains("spec.identity.tokenSecretRef", "'switchboard-credentials'",
                LABEL);
        assertThat(cluster.awaitReady("Binding", "plain", "True").path("reason").asText()).isEqualTo("Applied");
        HttpResponse<String> opened = chat.trySend("/api/chat/channels/ops/threads", "hello", "m-ops");
        assertThat(opened.statusCode()).as("the channel is not bound: " + opened.body()).isNotEqualTo(201);
        assertNeverSent(ADMIN_TOKEN);
    }

    @Test
    void triggersNeedNoLabelAndSlackAppsOnlyWhenTheirTokensLeaveForAnotherApi() {
        // the fake Slack is an apiUrl of the resource's author's choosing: its bot token is sent there, so it needs
        // the label; its signing secret is only compared, and needs none
        cluster.backendSecret("slack-bot", "token", "xoxb-own-bot-token-5a1e");
        cluster.secret("switchboard-credentials", "admin-token", ADMIN_TOKEN);
        cluster.secret("slack-signing", "secret", "own-signing-secret-0123");
        cluster.secret("alerts", "token", "a-trigger-token-0123456");
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.apply(webBinding("ops", "echo"));
        cluster.apply(slackApp("main", "slack-bot", "token"));
        cluster.apply(slackApp("thief", "switchboard-credentials", "admin-token"));
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: Trigger
                metadata: {name: alerts}
                spec:
                  bindingRef: {name: ops}
                  format: generic
                  tokenSecretRef: {name: alerts, key: token}
                """);
        cluster.start();
        assertThat(cluster.awaitReady("SlackApp", "main", "True").path("reason").asText()).isEqualTo("Applied");
        assertThat(cluster.awaitReady("Trigger", "alerts", "True").path("reason").asText()).isEqualTo("Applied");
        JsonNode thief = cluster.awaitReady("SlackApp", "thief", "False");
        assertThat(thief.path("reason").asText()).isEqualTo("SecretNotUsable");
        assertThat(thief.path("message").asText()).contains("spec.botToken.secretRef", "'switchboard-credentials'", LABEL);
        assertNeverSent(ADMIN_TOKEN);
        assertThat(cluster.slack().calls()).as("calls to the SlackApps' apiUrl").noneMatch(c -> ADMIN_TOKEN.equals(c.token()));
    }

    /** A SlackApp at the fake Slack (not Slack's own Web API) whose bot token is this Secret key. */
    private String slackApp(String name, String secret, String key) {
        return """
                apiVersion: switchboard.dev/v1
                kind: SlackApp
                metadata: {name: %s}
                spec:
                  mode: events
                  botToken: {secretRef: {name: %s, key: %s}}
                  signingSecret: {secretRef: {name: slack-signing, key: secret}}
                  apiUrl: "%s"
                """.formatted(name, secret, key, cluster.slack().apiUrl());
    }

    /** An AgentBackend at the echo agent with this Secret key as its bearer token. */
    private String borrowing(String name, String secret, String key) {
        return """
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: %s}
                spec:
                  url: %s
                  auth: {tokenSecretRef: {name: %s, key: %s}}
                """.formatted(name, cluster.agent().url(), secret, key);
    }

    private void assertNeverSent(String value) {
        List<RecordedRequest> all = cluster.agent().recorder().requests();
        assertThat(all).as("requests to the agent").noneMatch(r -> {
            String auth = r.header("Authorization");
            return auth != null && auth.contains(value);
        });
    }
}
