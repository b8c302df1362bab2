package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.config.Compat;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Metrics;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Server.spec.compat: kubemq} (issue 15): every name and shape a KubeMQ program sees is KubeMQ's — the
 * bare-array agent list, the {@code kubemq} platform card (reference §10), {@code kubemq_a2a_requests_total{agent_id,
 * method}} (non-standard methods as "unknown") and {@code kubemq_a2a_sse_streams_active{agent_id}} beside
 * Switchboard's own meters (§9), and the caller id in {@code X-KubeMQ-Caller-ID} (§8). Without it nothing changes.
 */
@ServerTest
class KubemqCompatTest {

    private static final String EVENT = "event: task.status\ndata: {\"type\":\"status_update\",\"payload\":{}}\n\n";

    /** An agent that echoes the headers it got and opens a stream for message/stream. */
    static RawAgent.Responder echoHeaders() {
        return (req, body, ex) -> {
            if (body.toString().contains("message/stream")) {
                RawAgent.openStream().respond(req, body, ex);
                req.response().write(EVENT);
                return;
            }
            req.response().putHeader("Content-Type", "application/json")
                    .end("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
        };
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class WithCompatKubemq {

        Harness h;
        RawAgent agent;

        @BeforeAll
        void start(@TempDir Path dir) {
            h = new Harness(dir);
            agent = h.raw(echoHeaders());
            h.compat(Compat.KUBEMQ).backend("echo-agent-01", agent.url()).start();
        }

        @AfterAll
        void stop() {
            h.close();
        }

        @Test
        void theAgentListIsABareArray() {
            JsonNode list = h.http().get("/agents").json();
            assertThat(list.isArray()).isTrue();
            assertThat(list).anySatisfy(a -> assertThat(a.path("agent_id").asText()).isEqualTo("echo-agent-01"));
            assertThat(h.http().get("/agents?limit=1").json()).hasSize(1);
        }

        @Test
        void thePlatformCardIsKubemqs() {
            Reply r = h.http().get("/.well-known/agent-card.json");
            assertThat(r.status()).isEqualTo(200);
            JsonNode card = r.json();
            assertThat(card.path("name").asText()).isEqualTo("kubemq");
            assertThat(card.path("description").asText()).isEqualTo("KubeMQ A2A Gateway");
            assertThat(card.path("version").asText()).isEqualTo("latest");
            assertThat(card.path("url").asText()).isEqualTo(h.base() + "/");
            assertThat(card.path("skills").isArray()).isTrue();
            assertThat(card.path("skills")).isEmpty();
            assertThat(card.path("defaultInputModes").toString()).isEqualTo("[\"text\"]");
            assertThat(card.path("defaultOutputModes").toString()).isEqualTo("[\"text\"]");
            assertThat(card.path("protocolVersions").toString()).isEqualTo("[\"1.0\"]");
        }

        @Test
        void theCallerIdReachesTheAgentAsXKubemqCallerId() {
            agent.clear();
            h.http().rpc("echo-agent-01", Rpc.send(1, "who am I"), "X-KubeMQ-Caller-ID", "someone-else");
            RawAgent.Exchange got = agent.next();
            assertThat(got.header("X-KubeMQ-Caller-ID")).isEqualTo("127.0.0.1");
            assertThat(got.header("X-Switchboard-Caller-ID")).isNull();
        }

        @Test
        void requestsAreCountedUnderKubemqsNamesBesideSwitchboardsOwn() {
            String[] methods = {"message/send", "tasks/get", "tasks/cancel", "tasks/send", "custom/action", "SendMessage"};
            for (String m : methods) {
                h.http().rpc("echo-agent-01", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + m + "\",\"params\":{}}");
            }
            Metrics m = h.metrics();
            String k = "kubemq_a2a_requests_total";
            for (String standard : new String[] {"message/send", "tasks/get", "tasks/cancel", "tasks/send"}) {
                assertThat(m.sum(k, "agent_id", "echo-agent-01", "method", standard)).as(standard).isEqualTo(1);
            }
            // custom/action and A2A 1.0's SendMessage are not among KubeMQ's five
            assertThat(m.sum(k, "agent_id", "echo-agent-01", "method", "unknown")).isEqualTo(2);
            assertThat(m.has(k, "method", "custom/action")).isFalse();
            // Switchboard's own meters are still there
            assertThat(m.sum("switchboard_gateway_requests_total", "agent", "echo-agent-01", "method", "tasks/get")).isEqualTo(1);
            // an unregistered agent id is not a label
            h.http().rpc("no-such-agent", Rpc.send(1, "anyone?"));
            assertThat(h.metrics().sum(k, "agent_id", "unknown", "method", "unknown")).isGreaterThanOrEqualTo(1);
            assertThat(h.metrics().has(k, "agent_id", "no-such-agent")).isFalse();
        }

        @Test
        void aStreamIsCountedOnceAndTheActiveGaugeDropsWhenTheCallerLeaves() {
            double before = h.metrics().sum("kubemq_a2a_requests_total", "agent_id", "echo-agent-01", "method", "message/stream");
            for (java.util.function.Supplier<SseCall> open : List.<java.util.function.Supplier<SseCall>>of(
                    () -> h.http().stream("/a2a/echo-agent-01", Rpc.stream(1, "a stream")),
                    () -> h.http().streamGet("/a2a/echo-agent-01/stream"))) {
                SseCall call = open.get();
                await().until(() -> call.dataFrames().size() == 1);
                assertThat(h.metrics().sum("kubemq_a2a_sse_streams_active", "agent_id", "echo-agent-01")).isEqualTo(1);
                call.disconnect();
                await().pollInterval(Duration.ofMillis(20)).until(() ->
                        h.metrics().sum("kubemq_a2a_sse_streams_active", "agent_id", "echo-agent-01") == 0);
            }
            // each stream once, although Switchboard counts its disconnect as an outcome of its own
            assertThat(h.metrics().sum("kubemq_a2a_requests_total", "agent_id", "echo-agent-01", "method", "message/stream"))
                    .isEqualTo(before + 2);
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class WithoutCompat {

        Harness h;
        RawAgent agent;

        @BeforeAll
        void start(@TempDir Path dir) {
            h = new Harness(dir);
            agent = h.raw(echoHeaders());
            h.backend("echo-agent-01", agent.url()).start();
        }

        @AfterAll
        void stop() {
            h.close();
        }

        @Test
        void switchboardKeepsItsOwnNamesAndShapes() {
            assertThat(h.http().get("/agents").json().path("agents").isArray()).isTrue();
            assertThat(h.http().get("/.well-known/agent-card.json").json().path("name").asText()).isEqualTo("switchboard");

            agent.clear();
            h.http().rpc("echo-agent-01", Rpc.send(1, "who am I"));
            RawAgent.Exchange got = agent.next();
            assertThat(got.header("X-Switchboard-Caller-ID")).isEqualTo("127.0.0.1");
            assertThat(got.header("X-KubeMQ-Caller-ID")).isNull();

            SseCall stream = h.http().streamGet("/a2a/echo-agent-01/stream");
            await().until(() -> stream.dataFrames().size() == 1);
            Metrics m = h.metrics();
            assertThat(m.sum("switchboard_gateway_requests_total", "agent", "echo-agent-01")).isGreaterThanOrEqualTo(2);
            assertThat(m.text()).doesNotContain("kubemq_a2a_");
            stream.disconnect();
            await().until(() -> h.inFlight("echo-agent-01") == 0);
        }
    }
}
