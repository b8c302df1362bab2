package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.trigger.TriggerFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Trigger kind in exactly the issue's shape; every mistake named by document and field, no token shown. */
class TriggerConfigTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    private static final String BASE = """
            apiVersion: switchboard.dev/v1
            kind: AgentBackend
            metadata: {name: sre}
            spec: {url: "http://127.0.0.1:9999/"}
            ---
            apiVersion: switchboard.dev/v1
            kind: Binding
            metadata: {name: web-sre}
            spec:
              backendRef: {name: sre}
              chat: {platform: web, channels: [sre, ops]}
              identity: {userId: bot}
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: alert-token}
            stringData: {token: very-secret-alert-token-1234}
            ---
            """;

    private static final String TRIGGER = """
            apiVersion: switchboard.dev/v1
            kind: Trigger
            metadata: {name: alerts}
            spec:
              bindingRef: {name: web-sre}        # its platform and first channel receive the threads
              format: alertmanager               # alertmanager (webhook v4) | generic {title, text, fields{}}
              tokenSecretRef: {name: alert-token, key: token}   # callers send Authorization: Bearer <token>
            """;

    @Test
    void readsTheIssuesShapeWithTheDefaultRate() {
        SwitchboardConfig c = loader.parse(BASE + TRIGGER, "t.yaml");
        TriggerSpec t = c.triggers().get(0);
        assertThat(t.name()).isEqualTo("alerts");
        assertThat(t.bindingRef()).isEqualTo("web-sre");
        assertThat(t.format()).isEqualTo(TriggerFormat.ALERTMANAGER);
        assertThat(c.secret(t.tokenSecretRef())).contains("very-secret-alert-token-1234");
        assertThat(t.perMinute()).isEqualTo(60);
        assertThat(t.burst()).isEqualTo(10);
        assertThat(c.toString()).doesNotContain("very-secret");
    }

    @Test
    void aRateLimitIsRead() {
        SwitchboardConfig c = loader.parse(BASE + TRIGGER.replace("format: alertmanager", "format: generic")
                + "  rateLimit: {perMinute: 600, burst: 3}\n", "t.yaml");
        assertThat(c.triggers().get(0).format()).isEqualTo(TriggerFormat.GENERIC);
        assertThat(c.triggers().get(0).perMinute()).isEqualTo(600);
        assertThat(c.triggers().get(0).burst()).isEqualTo(3);
        assertThatThrownBy(() -> loader.parse(BASE + TRIGGER + "  rateLimit: {perMinute: 0}\n", "t.yaml"))
                .hasMessageContaining("Trigger alerts").hasMessageContaining("spec.rateLimit.perMinute");
    }

    @Test
    void anUnknownBindingIsNamed() {
        assertThatThrownBy(() -> loader.parse(BASE + TRIGGER.replace("{name: web-sre}", "{name: web-nope}"), "t.yaml"))
                .hasMessageContaining("t.yaml: Trigger alerts: spec.bindingRef.name: no Binding named 'web-nope'");
    }

    @Test
    void anUnknownFormatIsNamed() {
        assertThatThrownBy(() -> loader.parse(BASE + TRIGGER.replace("format: alertmanager", "format: pagerduty"), "t.yaml"))
                .hasMessageContaining("document 4 (Trigger alerts): spec.format: 'pagerduty' is not a trigger format");
    }

    @Test
    void aMissingSecretIsNamed() {
        assertThatThrownBy(() -> loader.parse(BASE + TRIGGER.replace("{name: alert-token, key: token}",
                "{name: nope, key: token}"), "t.yaml"))
                .hasMessageContaining("Trigger alerts: spec.tokenSecretRef.name: no Secret named 'nope'");
        assertThatThrownBy(() -> loader.parse(BASE + TRIGGER.replace("{name: alert-token, key: token}",
                "{name: alert-token, key: other}"), "t.yaml"))
                .hasMessageContaining("Trigger alerts: spec.tokenSecretRef.key: Secret 'alert-token' has no key 'other'");
    }

    @Test
    void aTokenIsRequired() {
        String none = TRIGGER.replace("  tokenSecretRef: {name: alert-token, key: token}   # callers send Authorization: Bearer <token>\n", "");
        assertThatThrownBy(() -> loader.parse(BASE + none, "t.yaml"))
                .hasMessageContaining("(Trigger alerts): spec.tokenSecretRef: is required");
        assertThatThrownBy(() -> loader.parse(BASE.replace("very-secret-alert-token-1234", "short") + TRIGGER, "t.yaml"))
                .hasMessageContaining("spec.tokenSecretRef").hasMessageContaining("at least 16 characters")
                .hasMessageNotContaining("short");
    }

    @Test
    void namesAreUniqueAndFitInAPath() {
        assertThatThrownBy(() -> loader.parse(BASE + TRIGGER + "---\n" + TRIGGER, "t.yaml"))
                .hasMessageContaining("Trigger alerts: metadata.name: defined twice");
        assertThatThrownBy(() -> loader.parse(BASE + TRIGGER.replace("{name: alerts}", "{name: Alerts/x}"), "t.yaml"))
                .hasMessageContaining("metadata.name");
    }
}
