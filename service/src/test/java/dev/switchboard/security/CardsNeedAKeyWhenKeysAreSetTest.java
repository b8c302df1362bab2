package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.config.Compat;
import dev.switchboard.config.SecretRef;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
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
 * Threat: the cards as an anonymous back door (issue 22, M3). With API keys set every gateway call and registry
 * read needs a key, but the card URLs answered anyone: the platform card listed every agent and its skills, and
 * an agent's card was fetched from the agent with the agent's stored token on the anonymous caller's behalf.
 * Now an agent's card ({@code /a2a/{id}/.well-known/agent-card.json}) needs a key: 401 before the registry is
 * asked (an unknown id is 401 too, so the answer tells nothing) and before any agent is contacted. The platform
 * card stays public, for discovery, but an anonymous caller's copy names no agent and no skill (nothing is
 * fetched for it); a caller with a key gets the full one. KubeMQ's platform card ({@code compat: kubemq}) holds
 * no agent data and stays public; its agent cards need a key like Switchboard's.
 */
@ServerTest
class CardsNeedAKeyWhenKeysAreSetTest {

    private static final String KEY = "cards-key-0123456789";
    private static final String AGENT_TOKEN = "agent-token-only-for-the-agent";
    private static final String AGENT_CARD = "/a2a/victim/.well-known/agent-card.json";
    private static final String PLATFORM_CARD = "/.well-known/agent-card.json";

    @TempDir
    static Path dir;
    @TempDir
    static Path kubemqDir;

    static Harness keyed;
    static Harness kubemq;
    static TestAgent agent;

    @BeforeAll
    static void start() {
        keyed = new Harness(dir);
        agent = keyed.agent(TestAgentOptions.echo("victim"));
        keyed.apiKey("ci", KEY).secret("victim-token", "token", AGENT_TOKEN)
                .backend(Harness.spec("victim", agent.url(), AgentLimits.DEFAULTS, Map.of(),
                        new SecretRef("victim-token", "token"), List.of()))
                .start();
        kubemq = new Harness(kubemqDir).compat(Compat.KUBEMQ).apiKey("ci", KEY).backend("victim", agent.url()).start();
    }

    @AfterAll
    static void stop() {
        kubemq.close();
        keyed.close();
    }

    @BeforeEach
    void clear() {
        agent.recorder().clear();
        keyed.app().agentsChanged(); // no card from an earlier test in the cache
        kubemq.app().agentsChanged();
    }

    private static final List<String[]> NO_VALID_KEY = List.of(new String[] {},
            new String[] {"Authorization", "Bearer not-a-key"}, new String[] {"Authorization", KEY},
            new String[] {"X-API-Key", KEY});

    @Test
    void anAgentsCardNeedsAKeyAndNoAgentIsContactedWithout() {
        for (Harness h : List.of(keyed, kubemq)) {
            for (String[] headers : NO_VALID_KEY) {
                for (String path : List.of(AGENT_CARD, "/a2a/nobody/.well-known/agent-card.json")) {
                    Reply r = h.http().get(path, headers);
                    assertThat(r.status()).as("%s %s", path, String.join(" ", headers)).isEqualTo(401);
                    // RFC 6750: a bare challenge without credentials, error="invalid_token" for a wrong one
                    assertThat(r.header("WWW-Authenticate")).startsWith("Bearer");
                    assertThat(r.header("Content-Type")).startsWith("application/json");
                    assertThat(r.text()).doesNotContain("victim").doesNotContain(AGENT_TOKEN);
                }
            }
        }
        assertThat(agent.recorder().requests()).as("no agent was asked for its card").isEmpty();
    }

    @Test
    void anAnonymousCallersPlatformCardNamesNoAgent() {
        for (String[] headers : NO_VALID_KEY) {
            Reply r = keyed.http().get(PLATFORM_CARD, headers);
            assertThat(r.status()).isEqualTo(200);
            JsonNode card = r.json();
            assertThat(card.path("name").asText()).isEqualTo("switchboard");
            assertThat(card.path("skills")).isEmpty();
            assertThat(r.text()).doesNotContain("victim").doesNotContain("echo");
        }
        assertThat(agent.recorder().requests()).as("nothing was fetched for an anonymous caller").isEmpty();
    }

    @Test
    void kubemqsPlatformCardHoldsNoAgentDataAndStaysPublic() {
        Reply r = kubemq.http().get(PLATFORM_CARD);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("name").asText()).isEqualTo("kubemq");
        assertThat(r.json().path("skills")).isEmpty();
        assertThat(agent.recorder().requests()).isEmpty();
    }

    @Test
    void withAKeyBothCardsAreServedInFull() {
        String[] auth = {"Authorization", "Bearer " + KEY};
        Reply own = keyed.http().get(AGENT_CARD, auth);
        assertThat(own.status()).as(own.toString()).isEqualTo(200);
        assertThat(own.json().path("name").asText()).isEqualTo("victim");
        Reply platform = keyed.http().get(PLATFORM_CARD, auth);
        assertThat(platform.status()).isEqualTo(200);
        List<String> skills = new ArrayList<>();
        platform.json().path("skills").forEach(s -> skills.add(s.path("id").asText()));
        assertThat(skills).anySatisfy(id -> assertThat(id).startsWith("victim/"));
        assertThat(kubemq.http().get(AGENT_CARD, auth).status()).isEqualTo(200);

        List<RecordedRequest> fetches = agent.recorder().requests();
        assertThat(fetches).isNotEmpty();
        // the agent's token is sent to the agent, for a caller who had a key
        assertThat(fetches.get(0).header("Authorization")).isEqualTo("Bearer " + AGENT_TOKEN);
    }
}
