package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import dev.switchboard.auth.JwtIssuer;
import dev.switchboard.config.AuthSettings;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.JwksServer;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.Tokens;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 24: an issuer that rotates its keys: a token with the new key's kid makes Switchboard fetch the JWKS again. */
@ServerTest
class JwksRotationTest {

    @TempDir
    Path dir;

    @Test
    void aJwksRotationIsFollowed() {
        try (Harness sb = new Harness(dir)) {
            TestAgent agent = sb.agent(TestAgentOptions.echo("rot"));
            RSAKey before = Tokens.rsa("2024-01");
            ECKey after = Tokens.ec("2024-02");
            try (JwksServer jwks = new JwksServer(sb.vertx, Tokens.jwks(before))) {
                // no wait between refetches here, so the test needs no 30 s pause; JwtCallersTest holds the bound
                sb.backend("rot", agent.url()).auth(new AuthSettings(List.of(new JwtIssuer("https://idp.test/",
                        List.of("sb"), URI.create(jwks.uri()), null, "sub")), null, null, Duration.ZERO)).start();
                String old = Tokens.sign(before, Tokens.claims("https://idp.test/", "sb", "alice").build());
                assertThat(sb.http().rpc("rot", Rpc.send(1, "x"), "Authorization", "Bearer " + old).status())
                        .isEqualTo(200);
                int fetched = jwks.fetches();

                jwks.serve(Tokens.jwks(after));
                String rotated = Tokens.sign(after, Tokens.claims("https://idp.test/", "sb", "alice").build());
                assertThat(sb.http().rpc("rot", Rpc.send(2, "x"), "Authorization", "Bearer " + rotated).status())
                        .isEqualTo(200);
                assertThat(jwks.fetches()).isGreaterThan(fetched);
                await().until(() -> agent.recorder().requests().size() == 2);
            }
        }
    }
}
