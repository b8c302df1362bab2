package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.ECKey;
import dev.switchboard.auth.JwtIssuer;
import dev.switchboard.config.AuthSettings;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.Tokens;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flood of forged ES256 tokens (a configured issuer and kid, a signature by another key, each token new so no cache
 * helps) costs signature checks on a small worker pool, never the event loops: every forged call is refused (401, or
 * 429 with Retry-After when too many wait for a check), none is a 5xx or reaches the agent, and an API-key caller is
 * served in the middle of it.
 */
@ServerTest
class ForgedTokensCannotStallTheGatewayTest {

    private static final String ISSUER = "https://idp.test/";
    private static final String KEY = "ci-key-forged-0123456789";

    @TempDir
    static Path dir;
    static Harness sb;
    static TestAgent agent;
    static ECKey trusted = Tokens.ec("ec-1");
    static ECKey forger = Tokens.ec("ec-1"); // the trusted key's kid, another key

    @BeforeAll
    static void start() {
        sb = new Harness(dir);
        agent = sb.agent(TestAgentOptions.echo("flood"));
        sb.apiKey("ci-bot", KEY).backend("flood", agent.url())
                .auth(new AuthSettings(List.of(new JwtIssuer(ISSUER, List.of("switchboard"), null,
                        Tokens.jwks(trusted), "sub")), null, null))
                .start();
    }

    @AfterAll
    static void stop() {
        if (sb != null) {
            sb.close();
        }
    }

    @Test
    void aFloodOfForgedTokensIsRefusedWhileKeyCallersAreServed() throws Exception {
        List<CompletableFuture<Reply>> forged = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String token = Tokens.sign(forger, Tokens.claims(ISSUER, "switchboard", "mallory")
                    .jwtID(UUID.randomUUID().toString()).build());
            forged.add(sb.http().postAsync("/a2a/flood", Rpc.send(i, "forged"), "Content-Type", "application/json",
                    "Authorization", "Bearer " + token));
        }
        Reply keyed = sb.http().rpc("flood", Rpc.send(1000, "a key caller in the flood"), "Authorization",
                "Bearer " + KEY);
        assertThat(keyed.status()).isEqualTo(200);
        assertThat(keyed.text()).contains("a key caller in the flood");

        Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        for (CompletableFuture<Reply> f : forged) {
            Reply r = f.get(120, TimeUnit.SECONDS);
            statuses.merge(r.status(), 1, Integer::sum);
            if (r.status() == 429) {
                assertThat(r.header("Retry-After")).isEqualTo("1");
                assertThat(r.text()).contains("too many tokens are being verified");
            } else {
                assertThat(r.status()).as("a forged token is refused, never served, never a 5xx").isEqualTo(401);
                assertThat(r.header("WWW-Authenticate")).contains("bad signature");
            }
        }
        assertThat(statuses.keySet()).isSubsetOf(401, 429);
        assertThat(agent.recorder().requests()).as("only the key caller's call reached the agent").hasSize(1);
    }
}
