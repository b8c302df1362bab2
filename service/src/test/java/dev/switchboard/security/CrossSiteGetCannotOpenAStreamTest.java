package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: a page on another site opens an agent's stream (issue 22, M2). {@code POST /a2a/{id}} is safe from
 * other sites' pages because its {@code Content-Type: application/json} is not one a browser sends cross-site
 * without a CORS preflight, which the gateway never grants. {@code GET /a2a/{id}/stream} has no body: an
 * {@code <img>}, a {@code fetch(…, {mode: "no-cors"})} or an {@code EventSource} on any page can send it, and
 * on a default loopback install (no API keys) it would make the gateway call the agent. Such a request
 * carries what the browser says about where it came from: {@code Sec-Fetch-Site} other than
 * {@code same-origin}/{@code none}, or an {@code Origin} that is not the server's own. Those are refused 403
 * before the agent is contacted, with or without keys; with keys a key is needed too (401), as for a POST.
 */
@ServerTest
class CrossSiteGetCannotOpenAStreamTest {

    private static final String KEY = "stream-key-0123456789";

    @TempDir
    static Path openDir;
    @TempDir
    static Path keyedDir;

    static Harness open;
    static Harness keyed;
    static RawAgent agent;

    @BeforeAll
    static void start() {
        open = new Harness(openDir);
        agent = open.raw(RawAgent.openStream());
        open.backend("victim", agent.url()).start();
        keyed = new Harness(keyedDir).apiKey("ci", KEY).backend("victim", agent.url()).start();
    }

    @AfterAll
    static void stop() {
        keyed.close();
        open.close();
    }

    @BeforeEach
    void clear() {
        agent.clear();
    }

    /** What browsers send with a GET another site's page makes. */
    private static final List<String[]> CROSS_SITE = List.of(
            new String[] {"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Dest", "image"},
            new String[] {"Sec-Fetch-Site", "same-site", "Sec-Fetch-Mode", "cors"},
            new String[] {"Origin", "https://evil.example", "Accept", "text/event-stream"},
            new String[] {"Origin", "null"},
            new String[] {"Sec-Fetch-Site", "CROSS-SITE"});

    @Test
    void aCrossSiteGetIsRefusedBeforeTheAgentIsContacted() {
        for (String[] headers : CROSS_SITE) {
            Reply r = open.http().get("/a2a/victim/stream", headers);
            assertThat(r.status()).as(String.join(" ", headers)).isEqualTo(403);
            assertThat(r.header("Content-Type")).startsWith("application/json");
            assertThat(r.text()).contains("cross-site");
        }
        assertThat(agent.exchanges()).as("the agent was not called").isEmpty();
    }

    @Test
    void aKeyDoesNotMakeACrossSiteGetAcceptable() {
        Reply anonymous = keyed.http().get("/a2a/victim/stream");
        assertThat(anonymous.status()).isEqualTo(401);
        Reply crossSite = keyed.http().get("/a2a/victim/stream", "Authorization", "Bearer " + KEY,
                "Sec-Fetch-Site", "cross-site");
        assertThat(crossSite.status()).isEqualTo(403);
        assertThat(agent.exchanges()).isEmpty();
    }

    @Test
    void aCrossSiteFormPostIsNotRelayedEither() {
        Reply r = open.http().post("/a2a/victim", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/stream\",\"params\":{}}",
                "Content-Type", "text/plain", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site");
        assertThat(r.text()).contains("\"error\"");
        assertThat(agent.exchanges()).isEmpty();
    }

    @Test
    void programsAndTheServersOwnPagesStillOpenStreams() {
        for (String[] headers : List.of(new String[] {}, new String[] {"Sec-Fetch-Site", "same-origin"},
                new String[] {"Sec-Fetch-Site", "none"}, new String[] {"Origin", open.base()})) {
            agent.clear();
            SseCall call = open.http().streamGet("/a2a/victim/stream", headers);
            RawAgent.Exchange upstream = agent.next();
            upstream.write("event: task.status\ndata: {}\n\n");
            await().until(() -> call.dataFrames().size() == 1);
            assertThat(call.status()).as(String.join(" ", headers)).isEqualTo(200);
            upstream.end();
            call.awaitEnd();
        }
        await().until(() -> open.inFlight("victim") == 0);
    }
}
