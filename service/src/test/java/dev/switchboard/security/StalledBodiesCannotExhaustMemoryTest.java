package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.gateway.support.Metrics;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat (H2): unauthenticated memory exhaustion with stalled bodies. Anyone can open many connections to the routes
 * that read a body before they check a signature or a token ({@code /slack/events}, {@code /slack/interactions},
 * {@code /agents/register}, {@code /triggers/{name}}, the chat API) and send part of a large body, then nothing.
 * Every body of every route counts against the one budget the gateway's bodies count against, before a byte of it
 * is read: beyond it, a request is answered 503 with Retry-After at once, unread; the probes and a keyed gateway call
 * (once the budget has room) keep working, and the budget is all given back when the stalled callers leave.
 */
@ServerTest
class StalledBodiesCannotExhaustMemoryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "caller-key-0123456789abcdef";
    private static final String BYTES_GAUGE = "switchboard_gateway_request_bytes_in_flight";
    private static final long BUDGET = 400_000;
    /** What the routes that read a body before they know its sender may hold of it: half. */
    private static final long ANONYMOUS_SHARE = BUDGET / 2;
    /** Below every route's own maximum (the chat API's 64 KiB is the smallest). */
    private static final int STALLED = 50_000;
    private static final List<String> UNAUTHENTICATED = List.of("/slack/events", "/slack/interactions", "/agents/register",
            "/triggers/x", "/api/chat/threads");

    /** The routes that must read a body before they can check its sender (a signature over it, a token in it). */
    private static final List<String> READ_BEFORE_CHECKED = List.of("/slack/events", "/slack/interactions", "/agents/register");

    @TempDir
    Path dir;

    Vertx vertx;
    TestAgent agent;
    FakeSlack slack;
    SwitchboardApp app;
    String base;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("sre"), 0).await();
        slack = FakeSlack.start(vertx, FakeSlackOptions.defaults()
                .withTokens(ConfigYaml.SLACK_BOT_TOKEN, ConfigYaml.SLACK_APP_TOKEN)).await();
        app = SwitchboardFixture.builder().vertx(vertx).yaml(ConfigYaml.server(dir.resolve("switchboard.db"), """
                        apiKeys: [{name: caller, key: %s}]
                        gateway: {maxRequestBytes: 150000, maxRequestBytesInFlight: %d}
                        http: {bodyReadTimeout: 5m, idleTimeout: 5m, headerReadTimeout: 5m}
                        """.formatted(KEY, BUDGET))
                .slackAgent("sre", agent.url(), "events", slack.apiUrl(), null)).start().app();
        base = app.server().baseUrl();
    }

    @AfterEach
    void stop() {
        try {
            if (slack != null) {
                slack.close().await();
            }
        } finally {
            TestServers.stop(app, agent, vertx);
        }
    }

    @Test
    void stalledBodiesBeyondTheBudgetAreRefusedAndTheServerKeepsServing() throws Exception {
        List<RawHttp> stalled = new ArrayList<>();
        try {
            // four stalled callers hold the anonymous share of the budget: each declared 50,000 bytes and sent a few (to
            // the routes that read a body before they check its sender: the triggers and the chat API check first)
            for (String path : List.of("/slack/events", "/slack/interactions", "/agents/register", "/slack/events")) {
                stalled.add(stall(path, STALLED));
            }
            await().atMost(Duration.ofSeconds(30)).until(this::bytesInFlight, equalTo(ANONYMOUS_SHARE));

            // many more to every route: refused at once, unread, as busy
            for (int i = 0; i < 10; i++) {
                for (String path : UNAUTHENTICATED) {
                    try (RawHttp more = stall(path, STALLED)) {
                        assertBusy(path, more.read());
                    }
                }
            }
            // a chunked body, with no length to reserve up front, is refused once its first chunk does not fit
            try (RawHttp chunked = RawHttp.connect(base)) {
                chunked.head("POST /slack/events HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                        "Transfer-Encoding: chunked").chunk("{\"type\":\"" + "x".repeat(1_000));
                assertBusy("/slack/events (chunked)", chunked.read());
            }
            // a body larger than its route takes is refused as such, budget or not
            try (RawHttp tooLarge = stall("/agents/register", 300_000)) {
                assertThat(tooLarge.read().status()).isEqualTo(413);
            }
            // a keyed caller is served meanwhile: the other half of the budget is kept for callers whose key was checked
            HttpResponse<String> keyed = gatewayCall();
            assertThat(keyed.statusCode()).as(keyed.body()).isEqualTo(200);
            // the gateway's bodies count against the same budget: a stalled keyed call takes most of the rest
            RawHttp keyedStall = RawHttp.connect(base);
            stalled.add(keyedStall);
            keyedStall.head("POST /a2a/sre HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                    "Authorization: Bearer " + KEY, "Content-Length: 150000").write("{\"jsonrpc\":");
            await().atMost(Duration.ofSeconds(30)).until(this::bytesInFlight, equalTo(ANONYMOUS_SHARE + 150_000));
            HttpResponse<String> noRoom = gatewayCall("x".repeat(100_000));
            assertThat(noRoom.statusCode()).as(noRoom.body()).isEqualTo(503);
            try (RawHttp more = stall("/slack/events", 1_000)) {
                assertBusy("/slack/events, beside the gateway's", more.read());
            }
            // the probes answer throughout
            assertThat(get("/healthz").statusCode()).isEqualTo(200);
            assertThat(bytesInFlight()).isEqualTo(ANONYMOUS_SHARE + 150_000);
        } finally {
            stalled.forEach(RawHttp::close);
        }

        // the stalled callers left: every byte comes back, and a keyed caller is served again
        await().atMost(Duration.ofSeconds(30)).until(this::bytesInFlight, equalTo((long) 0));
        HttpResponse<String> call = gatewayCall();
        assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
        assertThat(JSON.readTree(call.body()).has("result")).as(call.body()).isTrue();
        assertThat(get("/healthz").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(this::bytesInFlight, equalTo((long) 0));
    }

    @Test
    void aCallerLeavingInTheMiddleOfItsBodyGivesItsBytesBack() {
        for (String path : UNAUTHENTICATED) {
            try (RawHttp one = stall(path, STALLED)) {
                if (READ_BEFORE_CHECKED.contains(path)) { // the others refuse an anonymous caller before they read
                    await().atMost(Duration.ofSeconds(30)).until(this::bytesInFlight, equalTo((long) STALLED));
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(this::bytesInFlight, equalTo((long) 0));
        }
    }

    @Test
    void aPathThatOnlyLooksLikeTheGatewaysIsBudgetedLikeTheRouteItReaches() throws Exception {
        // the router removes dot segments (and decodes %2e) before it routes: /a2a/../slack/events is Slack's route
        for (String path : List.of("/a2a/../slack/events", "/a2a/%2e%2e/agents/register", "/a2a/sre/%2E%2E/../slack/interactions")) {
            try (RawHttp one = stall(path, STALLED)) {
                await(path).atMost(Duration.ofSeconds(30)).until(this::bytesInFlight, equalTo((long) STALLED));
            }
            await().atMost(Duration.ofSeconds(30)).until(this::bytesInFlight, equalTo((long) 0));
        }
    }

    @Test
    void aGetWithABodyIsRefusedUnread() throws Exception {
        try (RawHttp raw = RawHttp.connect(base)) {
            raw.head("GET /api/chat/channels HTTP/1.1", "Host: 127.0.0.1", "Content-Length: " + STALLED);
            raw.write("{\"type\":\"");
            RawHttp.Response r = raw.read();
            assertThat(r.status()).as(r.body()).isEqualTo(400);
        }
        assertThat(bytesInFlight()).isZero();
    }

    /** A caller that declares {@code length} bytes of body, sends a few and then nothing. */
    private RawHttp stall(String path, int length) {
        RawHttp raw = RawHttp.connect(base);
        raw.head("POST " + path + " HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                "X-Slack-Request-Timestamp: 1", "X-Slack-Signature: v0=00", "Content-Length: " + length);
        raw.write("{\"type\":\"");
        return raw;
    }

    private static void assertBusy(String path, RawHttp.Response r) throws Exception {
        assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(503);
        assertThat(r.header("Retry-After")).as(path).isEqualTo("1");
        assertThat(r.header("Content-Type")).as(path).startsWith("application/json");
        JsonNode error = JSON.readTree(r.body()).path("error");
        assertThat(error.asText()).as(path).contains("busy");
    }

    private HttpResponse<String> gatewayCall() throws Exception {
        return gatewayCall("hello");
    }

    private HttpResponse<String> gatewayCall(String text) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/a2a/sre"))
                .header("Authorization", "Bearer " + KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Rpc.send(1, text))).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private long bytesInFlight() throws Exception {
        return (long) new Metrics(get("/metrics").body()).sum(BYTES_GAUGE);
    }
}
