package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.config.SecretRef;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Metrics;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G12: metrics per agent and method — requests, outcomes (ok, application error, each transport
 * error), latency histogram, calls in flight, open streams, rejections — on {@code /metrics}, and
 * never a secret there or in an error body (O3).
 */
@ServerTest
class G12MetricsTest {

    private static final String API_KEY = "apikey-SECRET-g12-111";
    private static final String ADMIN_TOKEN = "admintoken-SECRET-g12-222";
    private static final String BACKEND_TOKEN = "backendtoken-SECRET-g12-333";
    private static final String[] AUTH = {"Authorization", "Bearer " + API_KEY};

    private static final String REQUESTS = "switchboard_gateway_requests_total";

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent agent;
    /** Every reply and body the callers saw, searched for secrets at the end. */
    static final List<String> seen = new ArrayList<>();

    @BeforeAll
    static void start() throws IOException {
        h = new Harness(dir);
        agent = h.agent(TestAgentOptions.echo("metrics"));
        h.apiKey("metrics-bot", API_KEY).adminToken(ADMIN_TOKEN).secret("m-token", "token", BACKEND_TOKEN)
                .backend(Harness.spec("m-echo", agent.url(), Harness.limits(1, 300, 3600, 4096, 300),
                        Map.of("X-Team", "metrics"), new SecretRef("m-token", "token"), List.of()))
                .backend(Harness.spec("m-idle", agent.url(), Harness.limits(10, 300, 3600, 4096, 1),
                        Map.of(), new SecretRef("m-token", "token"), List.of()))
                .backend("m-gone", "http://127.0.0.1:" + G4ConcurrencyCapTest.freePort() + "/")
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static Reply call(String agentId, String body, String... extra) {
        String[] headers = new String[AUTH.length + extra.length];
        System.arraycopy(AUTH, 0, headers, 0, AUTH.length);
        System.arraycopy(extra, 0, headers, AUTH.length, extra.length);
        Reply reply = h.http().rpc(agentId, body, headers);
        seen.add(reply.toString());
        return reply;
    }

    private static Metrics scrape() {
        Reply r = h.http().get("/metrics");
        assertThat(r.status()).isEqualTo(200);
        return new Metrics(r.text());
    }

    @Test
    void g12_metricsShowRequestsOutcomesLatencyInFlightStreamsAndRejections() {
        TestHttp http = h.http();
        call("m-echo", Rpc.send(1, "ok"));
        call("m-echo", Rpc.send10(2, "SendMessage", "ok in 1.0").toString(), "A2A-Version", "1.0");
        call("m-echo", Rpc.send(3, "/error -32004 agent busy"));
        call("m-echo", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"custom/action\"}");
        call("m-echo", Rpc.send(5, "/http 500"));
        call("m-echo", Rpc.send(6, "/http 503"));
        call("m-echo", Rpc.send(7, "/http 504"));
        call("m-echo", Rpc.sendWithTimeout(8, "/silence", 1));
        call("m-echo", Rpc.send(9, "big ".repeat(2000)));
        call("m-gone", Rpc.send(10, "refused"));
        call("nobody", Rpc.send(11, "not found"));
        call("m-echo", "{\"jsonrpc\":\"1.0\",\"id\":12,\"method\":\"message/send\"}");
        seen.add(http.rpc("m-echo", Rpc.send(13, "no key")).toString());

        // a stream holds m-echo's only slot: one rejection, and the gauges show it
        SseCall stream = http.stream("/a2a/m-echo", Rpc.stream(14, "/slow 30000"), AUTH);
        await().until(() -> !stream.dataFrames().isEmpty());
        Reply busy = call("m-echo", Rpc.send(15, "one too many"));
        assertThat(busy.errorMessage()).startsWith("server busy");
        Metrics during = scrape();
        assertThat(during.sum("switchboard_gateway_in_flight", "agent", "m-echo")).isEqualTo(1);
        assertThat(during.sum("switchboard_gateway_streams_open", "agent", "m-echo")).isEqualTo(1);
        stream.disconnect();
        await().until(() -> h.inFlight("m-echo") == 0);

        SseCall idle = http.stream("/a2a/m-idle", Rpc.stream(16, "/slow 30000"), AUTH);
        idle.awaitEnd();
        SseCall completed = http.stream("/a2a/m-idle", Rpc.stream(17, "/stream 2 10"), AUTH);
        completed.awaitEnd();

        await().untilAsserted(() -> {
            Metrics m = scrape();
            // requests by agent, method and outcome
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "method", "message/send", "outcome", "ok")).as("REQUESTS agent m-echo method message/send outcome ok").isGreaterThanOrEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "method", "SendMessage", "outcome", "ok")).as("REQUESTS agent m-echo method SendMessage outcome ok").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "method", "message/send", "outcome", "application_error")).as("REQUESTS agent m-echo method message/send outcome application_error").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "method", "other", "outcome", "application_error")).as("REQUESTS agent m-echo method other outcome application_error").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "outcome", "agent_http_error")).as("REQUESTS agent m-echo outcome agent_http_error").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "outcome", "unreachable")).as("REQUESTS agent m-echo outcome unreachable").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "outcome", "timeout")).as("REQUESTS agent m-echo outcome timeout").isEqualTo(2);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "outcome", "too_large")).as("REQUESTS agent m-echo outcome too_large").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "outcome", "busy")).as("REQUESTS agent m-echo outcome busy").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "outcome", "invalid_request")).as("REQUESTS agent m-echo outcome invalid_request").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-echo", "method", "message/stream", "outcome", "caller_disconnected"))
                    .isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-idle", "method", "message/stream", "outcome", "idle_timeout")).as("REQUESTS agent m-idle method message/stream outcome idle_timeout").isEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "m-gone", "outcome", "unreachable")).as("REQUESTS agent m-gone outcome unreachable").isGreaterThanOrEqualTo(1);
            assertThat(m.sum(REQUESTS, "agent", "unknown", "outcome", "not_found")).as("REQUESTS agent unknown outcome not_found").isGreaterThanOrEqualTo(1);
            assertThat(m.sum(REQUESTS, "outcome", "unauthorized")).as("REQUESTS outcome unauthorized").isGreaterThanOrEqualTo(1);
            // latency histogram
            assertThat(m.has("switchboard_gateway_request_duration_seconds_bucket", "agent", "m-echo",
                    "method", "message/send")).isTrue();
            assertThat(m.text()).contains("le=\"");
            assertThat(m.sum("switchboard_gateway_request_duration_seconds_count", "agent", "m-echo",
                    "method", "message/send")).as("request_duration_seconds_count m-echo message/send").isGreaterThanOrEqualTo(1);
            // calls in flight and open streams, back at zero
            assertThat(m.has("switchboard_gateway_in_flight", "agent", "m-echo")).isTrue();
            assertThat(m.sum("switchboard_gateway_in_flight", "agent", "m-echo")).as("switchboard_gateway_in_flight agent m-echo").isZero();
            assertThat(m.sum("switchboard_gateway_in_flight", "agent", "m-idle")).as("switchboard_gateway_in_flight agent m-idle").isZero();
            assertThat(m.has("switchboard_gateway_streams_open", "agent", "m-echo")).isTrue();
            assertThat(m.sum("switchboard_gateway_streams_open", "agent", "m-echo")).as("switchboard_gateway_streams_open agent m-echo").isZero();
            assertThat(m.sum("switchboard_gateway_streams_open", "agent", "m-idle")).as("switchboard_gateway_streams_open agent m-idle").isZero();
            // rejections
            assertThat(m.sum("switchboard_gateway_rejections_total", "agent", "m-echo")).as("switchboard_gateway_rejections_total agent m-echo").isEqualTo(1);
        });
    }

    @Test
    void g12_noSecretInMetricsErrorBodiesOrTheRegistry() {
        // m-idle, so that the counts the other test checks on m-echo stay exact whatever the order
        call("m-idle", Rpc.send(1, "ok"));
        call("m-idle", Rpc.send(2, "/http 500"));
        call("m-gone", Rpc.send(3, "refused"));
        seen.add(h.http().rpc("m-idle", Rpc.send(4, "wrong key"), "Authorization", "Bearer " + API_KEY + "-wrong").toString());
        seen.add(h.http().post("/agents/register", "{\"agent_id\":\"x1\",\"name\":\"x\",\"url\":\"http://127.0.0.1:1/\"}",
                "Authorization", "Bearer " + API_KEY).toString());
        seen.add(h.http().get("/agents", AUTH).text());
        seen.add(h.http().get("/agents/m-echo", AUTH).text());
        seen.add(h.http().get("/a2a/m-echo/.well-known/agent-card.json").text());
        seen.add(h.http().get("/.well-known/agent-card.json").text());
        seen.add(h.http().get("/healthz").text());

        String metrics = scrape().text();
        for (String secret : List.of(API_KEY, ADMIN_TOKEN, BACKEND_TOKEN)) {
            assertThat(metrics).doesNotContain(secret);
            assertThat(seen).noneMatch(s -> s.contains(secret));
        }
        assertThat(metrics).doesNotContain("SECRET");
        // the agent did get its credential: the secret is used, just never shown
        assertThat(agent.recorder().requests()).anyMatch(r -> ("Bearer " + BACKEND_TOKEN).equals(r.header("Authorization")));
    }
}
