package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.switchboard.auth.JwtIssuer;
import dev.switchboard.config.AuthSettings;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.JwksServer;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.Tokens;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: JWT callers beside API keys, each refusal a 401 naming the rule broken (never echoing the token), JWKS
 * rotation followed, and the caller's identity passed on as a token Switchboard signs or as the caller's own token.
 */
@ServerTest
class JwtCallersTest {

    private static final String ISSUER = "https://idp.test/";
    private static final String AUDIENCE = "switchboard";
    private static final String KEY = "ci-key-jwt-0123456789";

    @TempDir
    static Path dir;
    static Harness sb;
    static TestAgent agent;
    static JwksServer jwks;
    static RSAKey rsa = Tokens.rsa("rsa-1");
    static ECKey ec = Tokens.ec("ec-1");
    static Tokens.Ed ed = Tokens.ed25519("ed-1");

    @BeforeAll
    static void start() {
        sb = new Harness(dir);
        agent = sb.agent(TestAgentOptions.echo("jwt"));
        jwks = new JwksServer(sb.vertx, Tokens.jwks(rsa, ec, ed.publicJwk()));
        AgentLimits d = AgentLimits.DEFAULTS;
        sb.apiKey("ci-bot", KEY)
                .backend("jwt", agent.url())
                .backend(withForwarding("signed", agent.url(), RegisteredAgent.CallerForwarding.SIGNED))
                .backend(withForwarding("passed", agent.url(), RegisteredAgent.CallerForwarding.PASS_THROUGH))
                // one refetch per hour at most: an unknown kid right after the start's fetch waits for none
                .auth(new AuthSettings(List.of(new JwtIssuer(ISSUER, List.of(AUDIENCE, "other"), URI.create(jwks.uri()),
                        null, "sub")), "https://switchboard.test", null, Duration.ofHours(1)))
                .start();
        await().until(() -> jwks.fetches() >= 1);
    }

    static dev.switchboard.config.AgentBackendSpec withForwarding(String name, String url,
            RegisteredAgent.CallerForwarding forwarding) {
        return new dev.switchboard.config.AgentBackendSpec(name, "default", url, dev.switchboard.bridge.engine.Dialect.A2A, null, null, null, Map.of(), null,
                AgentLimits.DEFAULTS, List.of(), forwarding, Map.of());
    }

    @AfterAll
    static void stop() {
        sb.close();
        jwks.close();
    }

    @BeforeEach
    void clear() {
        agent.recorder().clear();
    }

    private static Reply call(String agentId, String token, String... more) {
        String[] headers = new String[2 + more.length];
        headers[0] = "Authorization";
        headers[1] = "Bearer " + token;
        System.arraycopy(more, 0, headers, 2, more.length);
        return sb.http().rpc(agentId, Rpc.send(1, "hi"), headers);
    }

    private static void assertRefused(String token, String why) {
        Reply r = call("jwt", token);
        assertThat(r.status()).as(why).isEqualTo(401);
        assertThat(r.header("WWW-Authenticate")).startsWith("Bearer error=\"invalid_token\"").contains(why);
        assertThat(r.text()).contains(why).doesNotContain(token);
        assertThat(r.header("WWW-Authenticate")).doesNotContain(token);
    }

    @Test
    void aTokenSignedByTheIssuerIsACallerKnownByItsSubject() {
        for (String token : List.of(Tokens.sign(rsa, Tokens.claims(ISSUER, AUDIENCE, "alice").build()),
                Tokens.sign(ec, Tokens.claims(ISSUER, AUDIENCE, "alice").build()),
                Tokens.signEd(ed, Tokens.claims(ISSUER, AUDIENCE, "alice").build()))) {
            Reply r = call("jwt", token);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().path("result").path("status").path("state").asText()).isEqualTo("completed");
        }
        assertThat(agent.recorder().requests()).hasSize(3)
                .allSatisfy(q -> assertThat(q.header("X-Switchboard-Caller-ID")).isEqualTo("alice"));
    }

    @Test
    void apiKeysKeepWorkingBesideJwts() {
        assertThat(call("jwt", KEY).status()).isEqualTo(200);
        assertThat(agent.recorder().requests().get(0).header("X-Switchboard-Caller-ID")).isEqualTo("ci-bot");
        assertThat(call("jwt", "not-a-key-not-a-token").status()).isEqualTo(401);
    }

    @Test
    void anExpiredTokenIs401() {
        long past = System.currentTimeMillis() - 120_000;
        assertRefused(Tokens.sign(rsa, Tokens.claims(ISSUER, AUDIENCE, "alice").expirationTime(new Date(past)).build()),
                "expired");
        // within the 60 s of clock skew: still good
        long justPast = System.currentTimeMillis() - 20_000;
        assertThat(call("jwt", Tokens.sign(rsa, Tokens.claims(ISSUER, AUDIENCE, "alice")
                .expirationTime(new Date(justPast)).build())).status()).isEqualTo(200);
    }

    @Test
    void aTokenForAnotherAudienceIs401() {
        assertRefused(Tokens.sign(rsa, Tokens.claims(ISSUER, "someone-else", "alice").build()), "wrong audience");
    }

    @Test
    void anUnsignedAlgNoneTokenIs401() {
        assertRefused(Tokens.unsigned(Tokens.claims(ISSUER, AUDIENCE, "alice").build()), "alg refused: none");
    }

    @Test
    void anHs256TokenKeyedWithThePublicKeyIs401() {
        assertRefused(Tokens.hs256WithPublicKey(rsa, Tokens.claims(ISSUER, AUDIENCE, "alice").build()),
                "alg refused: HS256");
    }

    @Test
    void aTokenWithAnUnknownKidIs401AndRefetchesAtMostOncePerInterval() {
        int before = jwks.fetches();
        RSAKey stranger = Tokens.rsa("not-published");
        for (int i = 0; i < 5; i++) {
            assertRefused(Tokens.sign(stranger, Tokens.claims(ISSUER, AUDIENCE, "mallory").build()), "unknown key");
        }
        // the start's fetch was within the hour: no unknown kid made Switchboard fetch again
        assertThat(jwks.fetches()).isEqualTo(before);
        assertThat(agent.recorder().requests()).isEmpty();
    }

    @Test
    void aTokenFromAnUnknownIssuerIs401() {
        assertRefused(Tokens.sign(rsa, Tokens.claims("https://elsewhere.test/", AUDIENCE, "alice").build()),
                "unknown issuer");
    }

    @Test
    void aTokenSignedByAnotherKeyWithAPublishedKidIs401() {
        RSAKey forger = new RSAKey.Builder(Tokens.rsa("x")).keyID("rsa-1").build();
        assertRefused(Tokens.sign(forger, Tokens.claims(ISSUER, AUDIENCE, "alice").build()), "bad signature");
    }

    @Test
    void aPassedOnIdentityVerifiesAgainstTheServersJwks() throws Exception {
        assertThat(call("signed", Tokens.sign(rsa, Tokens.claims(ISSUER, AUDIENCE, "alice").build()),
                "X-Switchboard-Caller-JWT", "forged").status()).isEqualTo(200);
        String passed = agent.recorder().requests().get(0).header("X-Switchboard-Caller-JWT");
        assertThat(passed).isNotEqualTo("forged").isNotNull();

        // as an agent would: fetch the JWKS, pick the key by kid, verify, check the claims
        JWKSet keys = JWKSet.parse(sb.http().get("/.well-known/jwks.json").text());
        assertThat(keys.getKeys()).allSatisfy(k -> assertThat(k.isPrivate()).isFalse());
        SignedJWT jwt = SignedJWT.parse(passed);
        ECKey key = (ECKey) keys.getKeyByKeyId(jwt.getHeader().getKeyID());
        assertThat(jwt.verify(new ECDSAVerifier(key))).isTrue();
        JWTClaimsSet claims = jwt.getJWTClaimsSet();
        assertThat(claims.getSubject()).isEqualTo("alice");
        assertThat(claims.getAudience()).containsExactly("signed");
        assertThat(claims.getIssuer()).isEqualTo("https://switchboard.test");
        assertThat(claims.getStringClaim("caller_kind")).isEqualTo("jwt");
        assertThat(claims.getExpirationTime()).isAfter(new Date()).isBefore(new Date(System.currentTimeMillis() + 600_000));

        // an agent that did not ask gets none, whatever the caller sent
        call("jwt", KEY, "X-Switchboard-Caller-JWT", "forged");
        assertThat(agent.recorder().requests().get(1).header("X-Switchboard-Caller-JWT")).isNull();
    }

    @Test
    void passThroughReachesALoopbackAgentForJwtCallersOnly() {
        String token = Tokens.sign(ec, Tokens.claims(ISSUER, AUDIENCE, "bob").build());
        assertThat(call("passed", token).status()).isEqualTo(200);
        assertThat(call("passed", KEY).status()).isEqualTo(200);
        assertThat(call("jwt", token).status()).isEqualTo(200);
        List<RecordedRequest> seen = agent.recorder().requests();
        assertThat(seen.get(0).header("Authorization")).isEqualTo("Bearer " + token);
        assertThat(seen.get(1).header("Authorization")).as("an API key is never passed on").isNull();
        assertThat(seen.get(2).header("Authorization")).as("not by default").isNull();
    }

    @Test
    void theCallerIsAMetricsLabel() {
        call("jwt", Tokens.sign(rsa, Tokens.claims(ISSUER, AUDIENCE, "carol").build()));
        String text = sb.http().get("/metrics").text();
        assertThat(text).contains("switchboard_gateway_caller_requests_total{agent_id=\"jwt\",caller=\"carol\","
                + "caller_kind=\"jwt\"}");
    }
}
