package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.SignedJWT;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.config.AuthSettings;
import dev.switchboard.config.SecretRef;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.Tokens;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: Switchboard's configured signing key ({@code Server.spec.auth.callerJwt.signingKeySecretRef}, a Secret
 * holding a private EC P-256 JWK). The identity passed on verifies with that key's public part as served at
 * {@code /.well-known/jwks.json}; two Switchboards given the same key (two replicas) sign tokens each other's JWKS
 * verifies; a Secret that holds no usable private JWK fails the start naming the setting, never quoting the key.
 */
@ServerTest
class CallerSigningKeyTest {

    private static final String KEY = "ci-key-signing-0123456789";
    private static final SecretRef REF = new SecretRef("switchboard-signing", "jwk");
    static final ECKey SIGNING = Tokens.ec("replicas-key");

    @TempDir
    static Path dirA;
    @TempDir
    static Path dirB;
    @TempDir
    static Path badDir;

    static Harness a;
    static Harness b;
    static TestAgent agent;

    @BeforeAll
    static void start() {
        a = replica(dirA);
        agent = a.agent(TestAgentOptions.echo("signed"));
        a.backend(signedBackend(agent.url())).start();
        b = replica(dirB);
        b.backend(signedBackend(agent.url())).start();
    }

    private static Harness replica(Path dir) {
        return new Harness(dir).apiKey("ci-bot", KEY).secret(REF.name(), REF.key(), SIGNING.toJSONString())
                .auth(new AuthSettings(List.of(), "https://switchboard.test", REF));
    }

    private static dev.switchboard.config.AgentBackendSpec signedBackend(String url) {
        return new dev.switchboard.config.AgentBackendSpec("signed", "default", url,
                dev.switchboard.bridge.engine.Dialect.A2A, null, null, null, Map.of(), null, AgentLimits.DEFAULTS,
                List.of(), RegisteredAgent.CallerForwarding.SIGNED, Map.of());
    }

    @AfterAll
    static void stop() {
        a.close();
        b.close();
    }

    private static SignedJWT passedOnBy(Harness h) throws Exception {
        agent.recorder().clear();
        Reply r = h.http().rpc("signed", Rpc.send(1, "hi"), "Authorization", "Bearer " + KEY);
        assertThat(r.status()).isEqualTo(200);
        return SignedJWT.parse(agent.recorder().requests().get(0).header("X-Switchboard-Caller-JWT"));
    }

    private static ECKey served(Harness h) throws Exception {
        String text = h.http().get("/.well-known/jwks.json").text();
        JWKSet set = JWKSet.parse(text);
        assertThat(set.getKeys()).hasSize(1);
        JWK key = set.getKeys().get(0);
        assertThat(key.isPrivate()).as("only the public part is served").isFalse();
        assertThat(text).doesNotContain(SIGNING.getD().toString());
        return key.toECKey();
    }

    @Test
    void thePassedOnIdentityVerifiesWithTheConfiguredKeysPublicPart() throws Exception {
        SignedJWT token = passedOnBy(a);
        ECKey published = served(a);
        assertThat(published.getKeyID()).isEqualTo("replicas-key");
        assertThat(published.toECPublicKey()).isEqualTo(SIGNING.toECPublicKey());
        assertThat(token.getHeader().getKeyID()).isEqualTo("replicas-key");
        assertThat(token.verify(new ECDSAVerifier(published))).isTrue();
        assertThat(token.verify(new ECDSAVerifier(SIGNING.toPublicJWK()))).isTrue();
        assertThat(token.getJWTClaimsSet().getSubject()).isEqualTo("ci-bot");
        assertThat(token.getJWTClaimsSet().getIssuer()).isEqualTo("https://switchboard.test");
        assertThat(token.getJWTClaimsSet().getAudience()).containsExactly("signed");
    }

    @Test
    void twoSwitchboardsWithTheSameKeyVerifyEachOthersTokens() throws Exception {
        SignedJWT fromA = passedOnBy(a);
        SignedJWT fromB = passedOnBy(b);
        assertThat(fromA.verify(new ECDSAVerifier(served(b)))).isTrue();
        assertThat(fromB.verify(new ECDSAVerifier(served(a)))).isTrue();
        // and a Switchboard with a key of its own (generated at start) is not the same signer
        ECKey other = Tokens.ec("replicas-key");
        assertThat(fromA.verify(new ECDSAVerifier(other.toPublicJWK()))).isFalse();
    }

    @Test
    void aSecretWithoutAUsablePrivateJwkFailsTheStartNamingTheSetting() throws Exception {
        String marker = "c2VjcmV0LW1hcmtlci1kLXZhbHVl";
        for (String bad : List.of("{\"kty\":\"EC\",\"crv\":\"P-256\",\"d\":\"" + marker + "\"",   // not JSON
                SIGNING.toPublicJWK().toJSONString(),                                               // no private part
                "{\"kty\":\"oct\",\"k\":\"" + marker + "\"}")) {                                    // symmetric
            try (Harness h = new Harness(badDir)) {
                h.apiKey("ci-bot", KEY).secret(REF.name(), REF.key(), bad)
                        .auth(new AuthSettings(List.of(), null, REF));
                CompletableFuture<SwitchboardApp> started = SwitchboardApp.start(h.vertx, h.config())
                        .toCompletionStage().toCompletableFuture();
                Throwable failure = null;
                try {
                    started.get(30, TimeUnit.SECONDS).close();
                } catch (ExecutionException e) {
                    failure = e.getCause();
                }
                assertThat(failure).as(bad).isNotNull();
                assertThat(failure.getMessage())
                        .contains("spec.auth.callerJwt.signingKeySecretRef (Secret switchboard-signing, key jwk)")
                        .contains("private EC P-256 or RSA JWK")
                        .doesNotContain(marker).doesNotContain(SIGNING.getX().toString());
                assertThat(failure.getCause()).as("no library exception (which may quote the key) is chained").isNull();
            }
        }
    }
}
