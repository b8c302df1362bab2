package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.chat.slack.SlackMode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SlackApp kind and slack Bindings, in exactly the issue's shapes; every mistake named, no secret shown. */
class SlackAppConfigTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    private static final String BACKEND_AND_SECRETS = """
            apiVersion: switchboard.dev/v1
            kind: AgentBackend
            metadata: {name: sre-agent}
            spec: {url: "http://127.0.0.1:9999/"}
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: slack}
            stringData: {botToken: xoxb-1-secret-bot, signingSecret: sign-secret-value, appToken: xapp-1-secret-app}
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: sre-token}
            stringData: {token: agent-token}
            ---
            """;

    private static final String APP = """
            apiVersion: switchboard.dev/v1
            kind: SlackApp
            metadata: {name: main}
            spec:
              mode: events
              botToken: {secretRef: {name: slack, key: botToken}}
              signingSecret: {secretRef: {name: slack, key: signingSecret}}
              appToken: {secretRef: {name: slack, key: appToken}}
            ---
            """;

    private static final String BINDING = """
            apiVersion: switchboard.dev/v1
            kind: Binding
            metadata: {name: slack-sre}
            spec:
              backendRef: {name: sre-agent}
              chat: {platform: slack, app: main, channels: [C0123ABCD, im]}
              identity: {tokenSecretRef: {name: sre-token, key: token}}
              questions: {allowed: true, timeout: 1h}
            """;

    @Test
    void readsTheIssuesShapes() {
        SwitchboardConfig c = loader.parse(BACKEND_AND_SECRETS + APP + BINDING, "slack.yaml");
        SlackAppSpec app = c.slackApps().get(0);
        assertThat(app.name()).isEqualTo("main");
        assertThat(app.mode()).isEqualTo(SlackMode.EVENTS);
        assertThat(app.apiUrl()).isEqualTo("https://slack.com/api/");
        assertThat(c.secret(app.botToken())).contains("xoxb-1-secret-bot");
        BindingSpec b = c.bindings().get(0);
        assertThat(b.platform()).isEqualTo(Platform.SLACK);
        assertThat(b.app()).isEqualTo("main");
        assertThat(b.channels()).containsExactly("C0123ABCD", "im");
        assertThat(b.questionTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(c.toString()).doesNotContain("xoxb", "sign-secret", "xapp");
    }

    @Test
    void apiUrlGetsItsTrailingSlash() {
        SwitchboardConfig c = loader.parse(BACKEND_AND_SECRETS + APP.replace("  mode: events\n",
                "  mode: socket\n  apiUrl: http://127.0.0.1:1234/api\n") + BINDING, "slack.yaml");
        assertThat(c.slackApps().get(0).mode()).isEqualTo(SlackMode.SOCKET);
        assertThat(c.slackApps().get(0).apiUrl()).isEqualTo("http://127.0.0.1:1234/api/");
    }

    @Test
    void eventsModeNeedsTheSigningSecret() {
        String app = APP.replace("  signingSecret: {secretRef: {name: slack, key: signingSecret}}\n", "");
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + app + BINDING, "slack.yaml"))
                .hasMessageContaining("SlackApp main").hasMessageContaining("spec.signingSecret.secretRef")
                .hasMessageContaining("events mode");
    }

    @Test
    void socketModeNeedsTheAppToken() {
        String app = APP.replace("mode: events", "mode: socket").replace("  appToken: {secretRef: {name: slack, key: appToken}}\n", "");
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + app + BINDING, "slack.yaml"))
                .hasMessageContaining("spec.appToken.secretRef").hasMessageContaining("socket mode");
    }

    @Test
    void anUnknownModeIsNamed() {
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + APP.replace("mode: events", "mode: webhook") + BINDING,
                "slack.yaml")).hasMessageContaining("spec.mode").hasMessageContaining("'webhook'");
    }

    @Test
    void aSwappedTokenIsNamedWithoutItsValue() {
        String app = APP.replace("botToken: {secretRef: {name: slack, key: botToken}}",
                "botToken: {secretRef: {name: slack, key: appToken}}");
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + app + BINDING, "slack.yaml"))
                .hasMessageContaining("spec.botToken").hasMessageContaining("xoxb-")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("xapp-1-secret-app"));
    }

    @Test
    void aSlackBindingNamesAnExistingApp() {
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + APP + BINDING.replace("app: main", "app: other"),
                "slack.yaml")).hasMessageContaining("Binding slack-sre").hasMessageContaining("no SlackApp named 'other'");
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + APP + BINDING.replace("app: main, ", ""),
                "slack.yaml")).hasMessageContaining("spec.chat.app").hasMessageContaining("required");
    }

    @Test
    void channelsAreSlackIds() {
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + APP + BINDING.replace("C0123ABCD", "sre-alerts"),
                "slack.yaml")).hasMessageContaining("'sre-alerts' is not a Slack channel id");
    }

    @Test
    void aMissingSecretIsNamed() {
        String app = APP.replace("{name: slack, key: botToken}", "{name: slack-missing, key: botToken}");
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + app + BINDING, "slack.yaml"))
                .hasMessageContaining("no Secret named 'slack-missing'");
    }

    @Test
    void approversAreSlackUserAndGroupIdsOnASlackBindingOnly() {
        String named = BINDING.replace("timeout: 1h}", "timeout: 1h, approvers: [U0ADA0001, W0GRID001, S0SRE0001]}");
        assertThat(loader.parse(BACKEND_AND_SECRETS + APP + named, "slack.yaml").bindings().get(0).approvers())
                .containsExactly("U0ADA0001", "W0GRID001", "S0SRE0001");
        assertThat(loader.parse(BACKEND_AND_SECRETS + APP + BINDING, "slack.yaml").bindings().get(0).approvers())
                .as("none named").isEmpty();
        for (String bad : new String[] {"ada", "ada@example.com", "C0123ABCD", "u0ada0001", "U0"}) {
            assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + APP + named.replace("U0ADA0001", bad), "slack.yaml"))
                    .as(bad).hasMessageContaining("spec.questions.approvers")
                    .hasMessageContaining("'" + bad + "' is not a Slack user id");
        }
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + APP
                + BINDING.replace("timeout: 1h}", "timeout: 1h, approvers: []}"), "slack.yaml"))
                .hasMessageContaining("spec.questions.approvers: list at least one approver");
        String web = """
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: web-sre}
                spec:
                  backendRef: {name: sre-agent}
                  chat: {platform: web, channels: [sre]}
                  identity: {userId: switchboard}
                  questions: {approvers: [U0ADA0001]}
                """;
        assertThatThrownBy(() -> loader.parse(BACKEND_AND_SECRETS + web, "slack.yaml"))
                .hasMessageContaining("spec.questions.approvers: only a slack Binding names approvers");
    }
}
