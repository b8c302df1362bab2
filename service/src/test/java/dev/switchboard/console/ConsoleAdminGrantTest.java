package dev.switchboard.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.switchboard.auth.JwtIssuer;
import dev.switchboard.config.AuthSettings;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.Tokens;
import dev.switchboard.policy.AccessPolicySpec;
import dev.switchboard.policy.AccessPolicySpec.Subject;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27's last build point, over real HTTP: an AccessPolicy with {@code admin: true} opens the console's API beyond
 * loopback to its subjects (an API key by name, JWT callers by claim) as the admin token does; any other caller that
 * proves who it is gets 403, one without credentials (or with a key that does not exist: the same words) 401; and the
 * console-only policy leaves the gateway's calls as they were (no gateway policy, so still open).
 */
@ServerTest
class ConsoleAdminGrantTest {

    private static final String ADMIN = "console-admin-token-0123456789";
    private static final String OPS_KEY = "ops-key-0123456789abcdef";
    private static final String CI_KEY = "ci-key-0123456789abcdef";
    private static final String ISSUER = "https://idp.console.test/";
    private static final String AUDIENCE = "switchboard";
    private static final ECKey SIGNING = Tokens.ec("console-ec");

    @TempDir
    static Path dir;
    static Harness sb;
    static TestAgent echo;

    @BeforeAll
    static void start() {
        sb = new Harness(dir).listen("0.0.0.0").adminToken(ADMIN).apiKey("ops", OPS_KEY).apiKey("ci", CI_KEY);
        echo = sb.agent(TestAgentOptions.echo("echo"));
        sb.backend("echo", echo.url())
                .policy(new AccessPolicySpec("console-admins", List.of(new Subject.ApiKey("ops"),
                        new Subject.Claim("groups", List.of("sre"))), List.of(), Map.of(), List.of(), List.of(), null,
                        true))
                .auth(new AuthSettings(List.of(new JwtIssuer(ISSUER, List.of(AUDIENCE), null, Tokens.jwks(SIGNING),
                        "sub")), null, null))
                .start();
    }

    @AfterAll
    static void stop() {
        sb.close();
    }

    private static Reply agents(String bearer) {
        return bearer == null ? sb.http().get("/console/api/agents")
                : sb.http().get("/console/api/agents", "Authorization", "Bearer " + bearer);
    }

    private static String token(String subject, List<String> groups) {
        JWTClaimsSet.Builder b = Tokens.claims(ISSUER, AUDIENCE, subject).claim("groups", groups);
        return Tokens.sign(SIGNING, b.build());
    }

    @Test
    void aKeyWithTheAdminGrantOpensTheConsoleAndTheAdminTokenStillDoes() {
        Reply granted = agents(OPS_KEY);
        assertThat(granted.status()).isEqualTo(200);
        assertThat(granted.text()).contains("\"echo\"").doesNotContain(OPS_KEY).doesNotContain(ADMIN);
        assertThat(sb.http().get("/console/api/bridge", "Authorization", "Bearer " + OPS_KEY).status()).isEqualTo(200);
        assertThat(agents(ADMIN).status()).isEqualTo(200);
    }

    @Test
    void aKeyWithoutTheGrantIsForbiddenAndNoCredentialsOrAnUnknownKeyUnauthorizedAlike() {
        Reply ungranted = agents(CI_KEY);
        assertThat(ungranted.status()).isEqualTo(403);
        assertThat(ungranted.text()).contains("no admin grant").doesNotContain("\"echo\"").doesNotContain(CI_KEY);
        assertThat(sb.http().get("/console/api/bridge", "Authorization", "Bearer " + CI_KEY).status()).isEqualTo(403);

        Reply none = agents(null);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.header("WWW-Authenticate")).startsWith("Bearer");
        Reply unknown = agents("no-such-key-0123456789abcdef");
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.json().path("error").asText()).as("a key that does not exist is told nothing more")
                .isEqualTo(none.json().path("error").asText());
        assertThat(unknown.text()).doesNotContain("no-such-key");
        assertThat(agents(ADMIN + "x").status()).as("a wrong admin token").isEqualTo(401);
    }

    @Test
    void aJwtCallerWhoseClaimTheAdminPolicyNamesOpensTheConsoleAndAnotherIsForbidden() {
        assertThat(agents(token("alice", List.of("dev", "sre"))).status()).isEqualTo(200);
        assertThat(agents(token("bob", List.of("dev"))).status()).isEqualTo(403);
        String forged = Tokens.sign(Tokens.ec("other-ec"), Tokens.claims(ISSUER, AUDIENCE, "mallory")
                .claim("groups", List.of("sre")).build());
        assertThat(agents(forged).status()).as("a token no configured key signed").isEqualTo(401);
    }

    @Test
    void theConsoleOnlyPolicyLeavesEveryKeysGatewayCallsAsTheyWere() {
        Reply call = sb.http().rpc("echo", Rpc.send(1, "hello"), "Authorization", "Bearer " + CI_KEY);
        assertThat(call.status()).as("no gateway policy: still open to every key").isEqualTo(200);
        assertThat(call.json().path("result").path("status").path("state").asText()).isEqualTo("completed");
    }
}
