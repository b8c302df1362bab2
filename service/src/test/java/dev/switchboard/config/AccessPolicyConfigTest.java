package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.policy.AccessPolicySpec;
import dev.switchboard.policy.CallerLimitSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AccessPolicy documents and Server.spec.gateway.callerLimits as the loader reads and refuses them. */
class AccessPolicyConfigTest {

    private static final ConfigLoader LOADER = new ConfigLoader(Map.of());
    private static final String SERVER = """
            apiVersion: switchboard.dev/v1
            kind: Server
            spec:
              apiKeys: [{name: ci-bot, key: "0123456789abcdef"}]
              gateway: {callerLimits: {rate: 0.5, perAgent: {rate: 3}, maxConcurrency: 4}}
            ---
            apiVersion: switchboard.dev/v1
            kind: AgentBackend
            metadata: {name: echo, labels: {team: sre}}
            spec: {url: "http://127.0.0.1:9/"}
            ---
            """;

    @Test
    void aPolicyLoadsWithItsSubjectsAgentsMethodsAndRate() {
        SwitchboardConfig c = LOADER.parse(SERVER + """
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: ci}
                spec:
                  subjects: [{apiKey: ci-bot}, {claim: scope, values: [agents:call]}]
                  agents: {selector: {matchLabels: {team: sre}}}
                  methods: [message/send]
                  rateLimit: {rate: 2}
                """, "c.yaml");
        AccessPolicySpec p = c.policies().get(0);
        assertThat(p.subjects()).containsExactly(new AccessPolicySpec.Subject.ApiKey("ci-bot"),
                new AccessPolicySpec.Subject.Claim("scope", List.of("agents:call")));
        assertThat(p.matchLabels()).containsEntry("team", "sre");
        assertThat(p.rateLimit()).isEqualTo(new CallerLimitSettings.Rate(2, 2));
        assertThat(c.backendLabels()).containsEntry("echo", Map.of("team", "sre"));
        CallerLimitSettings limits = c.server().gateway().callerLimits();
        assertThat(limits.perCaller()).as("burst defaults to the rate, at least 1")
                .isEqualTo(new CallerLimitSettings.Rate(0.5, 1));
        assertThat(limits.perAgent()).isEqualTo(new CallerLimitSettings.Rate(3, 3));
        assertThat(limits.maxConcurrency()).isEqualTo(4);
    }

    @Test
    void callerLimitsAreOffByDefault() {
        assertThat(LOADER.parse("apiVersion: switchboard.dev/v1\nkind: Server\nspec: {}\n", "c.yaml").server().gateway()
                .callerLimits()).isEqualTo(CallerLimitSettings.OFF);
    }

    @Test
    void aSubjectNeedsExactlyOneOfApiKeyAndClaim() {
        assertThatThrownBy(() -> LOADER.parse(SERVER + policy("[{apiKey: ci-bot, claim: groups, values: [x]}]"), "c.yaml"))
                .hasMessageContaining("spec.subjects[0]: needs exactly one of apiKey and claim");
        assertThatThrownBy(() -> LOADER.parse(SERVER + policy("[{claim: groups}]"), "c.yaml"))
                .hasMessageContaining("spec.subjects[0].values: is required with claim");
    }

    @Test
    void adminTrueMayStandWithoutMethodsAndMethodsAreOtherwiseRequired() {
        SwitchboardConfig c = LOADER.parse(SERVER + """
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: console}
                spec:
                  subjects: [{apiKey: ci-bot}, {claim: groups, values: [sre]}]
                  admin: true
                """, "c.yaml");
        AccessPolicySpec p = c.policies().get(0);
        assertThat(p.admin()).isTrue();
        assertThat(p.methods()).isEmpty();
        assertThat(p.adminOnly()).isTrue();
        assertThat(LOADER.parse(SERVER + policy("[{apiKey: ci-bot}]"), "c.yaml").policies().get(0).admin())
                .as("admin defaults to false").isFalse();
        assertThatThrownBy(() -> LOADER.parse(SERVER + """
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: p}
                spec:
                  subjects: [{apiKey: ci-bot}]
                """, "c.yaml")).hasMessageContaining("(AccessPolicy p): spec.methods: is required");
        assertThatThrownBy(() -> LOADER.parse(SERVER + """
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: p}
                spec:
                  subjects: [{apiKey: ci-bot}]
                  admin: "yes please"
                """, "c.yaml")).hasMessageContaining("admin");
    }

    @Test
    void aKeyThatIsNotAKeyIsRefused() {
        assertThatThrownBy(() -> LOADER.parse(SERVER + policy("[{apiKey: ci-bt}]"), "c.yaml"))
                .hasMessageContaining("AccessPolicy p: spec.subjects[0].apiKey: no API key named 'ci-bt' in Server.spec.apiKeys");
    }

    @Test
    void labelsMustBeStrings() {
        assertThatThrownBy(() -> LOADER.parse("""
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: echo, labels: {team: {nested: x}}}
                spec: {url: "http://127.0.0.1:9/"}
                """, "c.yaml")).hasMessageContaining("metadata.labels.team: must be a string");
    }

    private static String policy(String subjects) {
        return """
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: p}
                spec:
                  subjects: %s
                  methods: ["*"]
                """.formatted(subjects);
    }
}
