package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: using the card endpoints to exhaust the gateway. An agent (or whoever controls its URL)
 * serves an endless card: the fetch is abandoned as soon as the body passes 1 MiB, not after reading
 * it all. A caller varies {@code A2A-Version} to fill the card cache: the cache is keyed by the
 * normalised version (1.0, 0.3 or none), so any number of variants costs at most three fetches.
 */
@ServerTest
class AgentCardFetchesAreBoundedTest {

    private static final long ENDLESS = 256L * 1024 * 1024;
    private static final String CARD = "{\"name\":\"versions\",\"description\":\"d\",\"version\":\"1\","
            + "\"supportedInterfaces\":[{\"url\":\"http://agent.internal/\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}],"
            + "\"capabilities\":{},\"defaultInputModes\":[\"text\"],\"defaultOutputModes\":[\"text\"],\"skills\":[]}";

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent endless;
    static RawAgent versions;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        endless = h.raw(RawAgent.endless(ENDLESS, 64 * 1024));
        versions = h.raw(RawAgent.fixed(200, "application/json", CARD));
        h.start();
        for (String[] a : new String[][] {{"endless", endless.url()}, {"versions", versions.url()}}) {
            Reply r = h.http().post("/agents/register", "{\"agent_id\":\"" + a[0] + "\",\"name\":\"" + a[0]
                    + "\",\"url\":\"" + a[1] + "\"}");
            assertThat(r.status()).isEqualTo(200);
        }
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void anEndlessCardIsAbandonedPastTheLimit() {
        Reply card = h.http().get("/a2a/endless/.well-known/agent-card.json", "A2A-Version", "1.0");

        assertThat(card.status()).isEqualTo(200);
        assertThat(card.json().path("name").asText()).as("built from the registration").isEqualTo("endless");
        RawAgent.Exchange fetch = endless.last();
        await().atMost(Duration.ofSeconds(30)).untilTrue(fetch.connectionClosed());
        assertThat(fetch.bytesWritten().get()).as("bytes the agent got to write").isLessThan(ENDLESS / 4);
    }

    @Test
    void garbageVersionsShareOneCacheEntry() {
        versions.clear();
        for (String v : new String[] {"1.0", "1.0.0", "1", " 1.0 ", "0.3", "0.3.0", "junk-1", "junk-2", "9.9", "",
                "x".repeat(200), "1.0;q=2"}) {
            Reply r = v.isEmpty() ? h.http().get("/a2a/versions/.well-known/agent-card.json")
                    : h.http().get("/a2a/versions/.well-known/agent-card.json", "A2A-Version", v);
            assertThat(r.status()).as(v).isEqualTo(200);
        }
        // "1.0;q=2" counts as 1.0; the rest as 1.0, 0.3 or none
        assertThat(versions.exchanges()).as("card fetches").hasSizeLessThanOrEqualTo(3);
        assertThat(versions.exchanges()).extracting(e -> String.valueOf(e.header("A2A-Version")))
                .allMatch(v -> v.equals("1.0") || v.equals("0.3") || v.equals("null"));
    }
}
