package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.registry.RegistrySettings;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: DNS rebinding. A name that looks harmless at registration resolves to a forbidden address
 * when the gateway connects. The check therefore runs on the address the name resolves to at connect
 * time, for relayed calls and card fetches alike, and the gateway connects to exactly that address.
 * Shown with {@code registry.allowedHosts: [10.0.0.0/8]}: {@code localhost} is accepted at registration
 * (a CIDR rule may admit what a name resolves to) but resolves to 127.0.0.1, outside the block, so
 * every connection is refused and the agent sees nothing. A literal address outside the block, or a
 * name no host pattern can match, is refused at registration. Config-file agents are trusted as written.
 */
@ServerTest
class EgressIsCheckedOnTheResolvedAddressAtConnectTest {

    @TempDir
    static Path dir;
    @TempDir
    static Path patternDir;

    static Harness h;
    static RawAgent agent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        agent = h.raw(RawAgent.fixed(200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true}}"));
        h.registry(new RegistrySettings(List.of("10.0.0.0/8"), 1000))
                .backend("from-config", "http://localhost:" + agent.port() + "/")
                .start();
        Reply registered = register(h, "rebound", "http://localhost:" + agent.port() + "/");
        assertThat(registered.status()).as(registered.toString()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @BeforeEach
    void clear() {
        agent.clear();
    }

    private static Reply register(Harness on, String id, String url) {
        return on.http().post("/agents/register", "{\"agent_id\":\"" + id + "\",\"name\":\"n\",\"url\":\"" + url + "\"}");
    }

    @Test
    void aCallToANameResolvingOutsideTheAllowedHostsIsRefusedAtConnect() {
        Reply reply = h.http().rpc("rebound", Rpc.send(7, "hi"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.errorCode()).isEqualTo(-32603);
        JsonNode data = reply.errorData();
        assertThat(data.path("executed").asBoolean()).isFalse();
        assertThat(data.path("source").asText()).isEqualTo("gateway");
        assertThat(reply.errorMessage()).contains("rebound").contains("not allowed");
        assertThat(reply.errorMessage()).as("the address itself is not told")
                .doesNotContain("127.0.0.1").doesNotContain(String.valueOf(agent.port()));
        assertThat(reply.json().path("id").asInt()).isEqualTo(7);
        assertThat(agent.exchanges()).as("nothing reached the agent").isEmpty();
    }

    @Test
    void theCardFetchIsRefusedToo() {
        Reply card = h.http().get("/a2a/rebound/.well-known/agent-card.json", "A2A-Version", "1.0");

        assertThat(card.status()).isEqualTo(200);
        assertThat(card.json().path("name").asText()).as("built from the registration").isEqualTo("n");
        assertThat(agent.exchanges()).as("no card fetch reached the agent").isEmpty();
    }

    @Test
    void configFileAgentsAreTrustedAsWritten() {
        Reply reply = h.http().rpc("from-config", Rpc.send(1, "hi"));

        assertThat(reply.json().path("result").path("ok").asBoolean()).as(reply.toString()).isTrue();
    }

    @Test
    void whatClearlyCannotMatchIsRefusedAtRegistration() {
        Reply literal = register(h, "literal-out", "http://127.0.0.1:" + agent.port() + "/");
        assertThat(literal.status()).as(literal.toString()).isEqualTo(400);
        assertThat(literal.json().path("field").asText()).isEqualTo("url");

        try (Harness patterns = new Harness(patternDir)) {
            // host patterns only: a name no pattern matches, or any literal address, cannot pass at connect
            patterns.registry(new RegistrySettings(List.of("*.agents.example"), 1000)).start();
            for (String url : List.of("http://localhost:" + agent.port() + "/", "http://127.0.0.1:" + agent.port() + "/",
                    "http://agents.example.evil.test/", "http://xagents.example/")) {
                Reply reply = register(patterns, "no-match", url);
                assertThat(reply.status()).as(url + " → " + reply).isEqualTo(400);
                assertThat(reply.json().path("field").asText()).isEqualTo("url");
            }
            Reply matching = register(patterns, "matching", "http://a.agents.example:9/");
            assertThat(matching.status()).as(matching.toString()).isEqualTo(200);
        }
    }
}
