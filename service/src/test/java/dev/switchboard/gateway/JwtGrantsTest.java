package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: JWT callers meet AccessPolicy grants end to end, over real HTTP with real signed tokens: a subject
 * {@code {claim: groups, values: [sre]}} admits a token whose {@code groups} holds sre and refuses (403, the agent
 * never contacted) one whose groups are [dev]; a {@code scope} subject matches one word of the token's space-separated
 * scope; and the registry list shows a JWT caller only the agents it is granted.
 */
@ServerTest
class JwtGrantsTest {

    private static final String ISSUER = "https://idp.grants.test/";
    private static final String AUDIENCE = "switchboard";

    @TempDir
    static Path dir;
    static Harness sb;
    static TestAgent ops;
    static TestAgent docs;
    static final ECKey KEY = Tokens.ec("grants-ec");

    @BeforeAll
    static void start() {
        sb = new Harness(dir);
        ops = sb.agent(TestAgentOptions.echo("ops"));
        docs = sb.agent(TestAgentOptions.echo("docs"));
        sb.backend("ops", ops.url())
                .backend("docs", docs.url())
                .policy(new AccessPolicySpec("sre-group", List.of(new Subject.Claim("groups", List.of("sre"))),
                        List.of("ops"), Map.of(), List.of(), List.of("*"), null))
                .policy(new AccessPolicySpec("docs-readers", List.of(new Subject.Claim("scope", List.of("agents:read"))),
                        List.of("docs"), Map.of(), List.of(), List.of("message/send"), null))
                .auth(new AuthSettings(List.of(new JwtIssuer(ISSUER, List.of(AUDIENCE), null, Tokens.jwks(KEY), "sub")),
                        null, null))
                .start();
    }

    @AfterAll
    static void stop() {
        sb.close();
    }

    @BeforeEach
    void clear() {
        ops.recorder().clear();
        docs.recorder().clear();
    }

    private static String token(String subject, Map<String, Object> claims) {
        JWTClaimsSet.Builder b = Tokens.claims(ISSUER, AUDIENCE, subject);
        claims.forEach(b::claim);
        return Tokens.sign(KEY, b.build());
    }

    private static Reply call(String agent, String body, String token) {
        return sb.http().rpc(agent, body, "Authorization", "Bearer " + token);
    }

    @Test
    void aGroupsClaimGrantAdmitsSreAndRefusesDevBeforeTheAgentIsContacted() {
        Reply sre = call("ops", Rpc.send(1, "restart it"), token("alice", Map.of("groups", List.of("sre", "oncall"))));
        assertThat(sre.status()).isEqualTo(200);
        assertThat(sre.json().path("result").path("status").path("state").asText()).isEqualTo("completed");
        assertThat(ops.recorder().requests()).hasSize(1)
                .allSatisfy(r -> assertThat(r.header("X-Switchboard-Caller-ID")).isEqualTo("alice"));

        String dev = token("bob", Map.of("groups", List.of("dev")));
        Reply refused = call("ops", Rpc.send(2, "restart it"), dev);
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.errorCode()).isEqualTo(-31403);
        assertThat(refused.json().path("id").asInt()).isEqualTo(2);
        assertThat(refused.errorMessage()).contains("caller bob has no grant for agent ops").doesNotContain(dev);
        assertThat(call("ops", Rpc.stream(3, "x"), dev).status()).isEqualTo(403);
        // a token without the claim at all is no member either
        assertThat(call("ops", Rpc.send(4, "x"), token("carol", Map.of())).status()).isEqualTo(403);
        assertThat(ops.recorder().requests()).as("requests that reached the agent").hasSize(1);
    }

    @Test
    void aScopeGrantMatchesOneWordOfTheTokensScope() {
        String reader = token("dana", Map.of("scope", "openid agents:read profile"));
        assertThat(call("docs", Rpc.send(1, "hello"), reader).status()).isEqualTo(200);
        assertThat(docs.recorder().requests()).hasSize(1);

        Reply other = call("docs", Rpc.send(2, "hello"), token("erin", Map.of("scope", "openid agents:write")));
        assertThat(other.status()).isEqualTo(403);
        assertThat(other.errorMessage()).contains("caller erin has no grant for agent docs");
        // the grant is for message/send only, and for docs only
        Reply cancel = call("docs", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/cancel\",\"params\":{\"id\":\"t\"}}",
                reader);
        assertThat(cancel.status()).isEqualTo(403);
        assertThat(cancel.errorMessage()).contains("method tasks/cancel on agent docs");
        assertThat(call("ops", Rpc.send(4, "x"), reader).status()).isEqualTo(403);
        assertThat(docs.recorder().requests()).hasSize(1);
        assertThat(ops.recorder().requests()).isEmpty();
    }

    @Test
    void theRegistryListShowsAJwtCallerOnlyItsGrantedAgents() {
        assertThat(agentIds(sb.http().get("/agents", "Authorization", "Bearer "
                + token("alice", Map.of("groups", List.of("sre")))).json())).containsExactly("ops");
        assertThat(agentIds(sb.http().get("/agents", "Authorization", "Bearer "
                + token("dana", Map.of("scope", "agents:read"))).json())).containsExactly("docs");
        assertThat(agentIds(sb.http().get("/agents", "Authorization", "Bearer "
                + token("bob", Map.of("groups", List.of("dev")))).json())).isEmpty();
        assertThat(sb.http().get("/agents/ops", "Authorization", "Bearer "
                + token("bob", Map.of("groups", List.of("dev")))).status()).isEqualTo(404);
    }

    private static List<String> agentIds(JsonNode list) {
        List<String> ids = new ArrayList<>();
        list.path("agents").forEach(a -> ids.add(a.path("agent_id").asText()));
        return ids;
    }
}
