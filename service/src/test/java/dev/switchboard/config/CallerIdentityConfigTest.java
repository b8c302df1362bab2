package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.registry.RegisteredAgent;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 24: how an AgentBackend learns its caller, and the JWT issuers of Server.spec.auth, as the loader reads them. */
class CallerIdentityConfigTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    private static String backend(String url, String auth) {
        return "kind: AgentBackend\nmetadata: {name: agent-a}\nspec:\n  url: " + url + "\n  auth: " + auth + "\n";
    }

    @Test
    void passThroughIsRefusedForAPlainHttpRemoteAgent() {
        assertThatThrownBy(() -> loader.parse(backend("http://agents.example.com/", "{passThrough: true}"), "t.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("spec.auth.passThrough").hasMessageContaining("https");
    }

    @Test
    void passThroughIsAcceptedForHttpsAndLoopbackAgents() {
        for (String url : new String[] {"https://agents.example.com/", "http://127.0.0.1:9999/", "http://localhost:1/"}) {
            AgentBackendSpec b = loader.parse(backend(url, "{passThrough: true}"), "t.yaml").backends().get(0);
            assertThat(b.callerForwarding()).as(url).isEqualTo(RegisteredAgent.CallerForwarding.PASS_THROUGH);
        }
    }

    @Test
    void callerJwtAndPassThroughOnOneBackendIsAConfigError() {
        assertThatThrownBy(() -> loader.parse(backend("https://a.example.com/", "{passThrough: true, callerJwt: true}"),
                "t.yaml")).isInstanceOf(ConfigException.class).hasMessageContaining("exclude each other");
    }

    @Test
    void neitherIsOnByDefault() {
        AgentBackendSpec b = loader.parse(backend("https://a.example.com/", "{}"), "t.yaml").backends().get(0);
        assertThat(b.callerForwarding()).isEqualTo(RegisteredAgent.CallerForwarding.NONE);
        assertThat(loader.parse(backend("https://a.example.com/", "{callerJwt: true}"), "t.yaml").backends().get(0)
                .callerForwarding()).isEqualTo(RegisteredAgent.CallerForwarding.SIGNED);
    }

    @Test
    void jwtIssuersAreRead() {
        SwitchboardConfig c = loader.parse("""
                kind: Server
                spec:
                  auth:
                    jwt:
                      - issuer: https://login.example.com/
                        audiences: [switchboard]
                        jwksUri: https://login.example.com/jwks.json
                        claimsToCaller: email
                """, "t.yaml");
        var issuer = c.server().auth().jwt().get(0);
        assertThat(issuer.issuer()).isEqualTo("https://login.example.com/");
        assertThat(issuer.claimsToCaller()).isEqualTo("email");
        assertThat(issuer.audiences()).containsExactly("switchboard");
    }

    @Test
    void aJwksUriInClearToAnotherHostOrBothKeySourcesAreRefused() {
        String clear = "kind: Server\nspec:\n  auth:\n    jwt:\n      - {issuer: i, audiences: [a], "
                + "jwksUri: 'http://login.example.com/jwks'}\n";
        assertThatThrownBy(() -> loader.parse(clear, "t.yaml")).hasMessageContaining("https");
        String both = "kind: Server\nspec:\n  auth:\n    jwt:\n      - {issuer: i, audiences: [a], "
                + "jwksUri: 'https://login.example.com/jwks', jwks: '{\"keys\":[]}'}\n";
        assertThatThrownBy(() -> loader.parse(both, "t.yaml")).hasMessageContaining("exactly one of jwksUri and jwks");
    }

    @Test
    void aRefusedJwksUriIsNamedWithoutItsCredentials() {
        String withCredentials = "kind: Server\nspec:\n  auth:\n    jwt:\n      - {issuer: i, audiences: [a], "
                + "jwksUri: 'http://bob:hunter2-pw@login.example.com/jwks?api_key=sekrit-query'}\n";
        assertThatThrownBy(() -> loader.parse(withCredentials, "t.yaml"))
                .hasMessageContaining("spec.auth.jwt").hasMessageContaining("http://login.example.com/jwks")
                .hasMessageNotContaining("hunter2").hasMessageNotContaining("sekrit");
    }

    @Test
    void anInlineJwksThatIsNotOneIsRefusedWithoutQuotingIt() {
        String bad = "kind: Server\nspec:\n  auth:\n    jwt:\n      - {issuer: i, audiences: [a], "
                + "jwks: '{\"keys\":[{\"kty\":\"EC\",\"crv\":\"P-256\",\"d\":\"c2VjcmV0LXByaXZhdGUtcGFydA\"'}\n";
        assertThatThrownBy(() -> loader.parse(bad, "t.yaml")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("jwks").hasMessageContaining("not a JWKS document")
                .hasMessageNotContaining("c2VjcmV0LXByaXZhdGUtcGFydA");
    }
}
