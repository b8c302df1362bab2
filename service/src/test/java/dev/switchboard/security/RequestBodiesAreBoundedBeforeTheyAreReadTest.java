package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: memory exhaustion with request bodies. A caller declares a large body and sends it slowly
 * (or never), to an unknown agent, to a busy one, or many at once. The gateway decides everything it
 * can before reading a byte of the body (agent known, slot free, bytes in the global budget), answers
 * without reading it, and gives the slot and the bytes back on every way out, a caller vanishing in
 * the middle of its body included.
 */
@ServerTest
class RequestBodiesAreBoundedBeforeTheyAreReadTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long BUDGET = 100_000;
    private static final String BYTES_GAUGE = "switchboard_gateway_request_bytes_in_flight";

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent held;
    static RawAgent quick;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        held = h.raw(RawAgent.silent());
        quick = h.raw(RawAgent.fixed(200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true}}"));
        h.gateway(new GatewaySettings(80_000, Duration.ofSeconds(15), Duration.ofSeconds(10), BUDGET))
                .backend("one-slot", quick.url(), Harness.limits(1, 300, 3600, 1 << 20, 300))
                .backend("held", held.url(), Harness.limits(1, 300, 3600, 1 << 20, 300))
                .backend("quick", quick.url(), AgentLimits.DEFAULTS)
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static long bytesInFlight() {
        return (long) h.metrics().sum(BYTES_GAUGE);
    }

    private static JsonNode json(RawHttp.Response r) throws Exception {
        return JSON.readTree(r.body());
    }

    /** A head declaring a body of {@code length} bytes, none of which is sent. */
    private static RawHttp.Response declareAndWait(String agentId, long length) {
        try (RawHttp raw = RawHttp.connect(h.base())) {
            return raw.head("POST /a2a/" + agentId + " HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                    "Content-Length: " + length).read();
        }
    }

    @Test
    void anUnknownAgentIsAnsweredWithoutReadingTheBody() throws Exception {
        RawHttp.Response r = declareAndWait("nobody-here", 70_000);

        assertThat(r.status()).isEqualTo(200);
        assertThat(json(r).path("error").path("code").asInt()).isEqualTo(-32002);
    }

    @Test
    void aBusyAgentIsAnsweredWithoutReadingTheBody() throws Exception {
        CompletableFuture<Reply> holding = h.http().postAsync("/a2a/held", Rpc.send(1, "hold"));
        held.next();
        try {
            RawHttp.Response r = declareAndWait("held", 70_000);

            assertThat(r.status()).isEqualTo(503);
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat(json(r).path("error").path("data").path("retryable").asBoolean()).isTrue();
        } finally {
            held.exchanges().forEach(e -> e.reply("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
            holding.get();
            held.clear();
        }
    }

    @Test
    void aCallerVanishingInTheMiddleOfItsBodyGivesBackItsSlotAndBytes() {
        try (RawHttp raw = RawHttp.connect(h.base())) {
            raw.head("POST /a2a/one-slot HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", "Content-Length: 5000")
                    .write("{\"jsonrpc\":\"2.0\",");
            await().atMost(Duration.ofSeconds(30)).until(() -> bytesInFlight() == 5000);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> bytesInFlight() == 0 && h.inFlight("one-slot") == 0);

        Reply next = h.http().rpc("one-slot", Rpc.send(2, "after"));
        assertThat(next.json().path("result").path("ok").asBoolean()).as(next.toString()).isTrue();
    }

    @Test
    void overTheGlobalByteBudgetACallIsBusyAndTheBytesComeBack() throws Exception {
        try (RawHttp hog = RawHttp.connect(h.base())) {
            // reserves its declared 70,000 bytes of the 100,000 and sends only a little
            hog.head("POST /a2a/quick HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", "Content-Length: 70000")
                    .write("{");
            await().atMost(Duration.ofSeconds(30)).until(() -> bytesInFlight() == 70_000);

            // a declared body that does not fit: refused at once, unread
            RawHttp.Response declared = declareAndWait("quick", 40_000);
            assertThat(declared.status()).isEqualTo(503);
            assertThat(declared.header("Retry-After")).isEqualTo("1");
            JsonNode error = json(declared).path("error");
            assertThat(error.path("code").asInt()).isEqualTo(-32603);
            assertThat(error.path("data").path("retryable").asBoolean()).isTrue();

            // a chunked body is counted as it arrives and refused once it no longer fits
            try (RawHttp chunked = RawHttp.connect(h.base())) {
                chunked.head("POST /a2a/quick HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                        "Transfer-Encoding: chunked");
                for (int i = 0; i < 7; i++) { // the seventh no longer fits: nothing follows the refusal
                    chunked.chunk("x".repeat(5_000));
                }
                RawHttp.Response r = chunked.read();
                assertThat(r.status()).isEqualTo(503);
                assertThat(json(r).path("error").path("code").asInt()).isEqualTo(-32603);
            }
            // small calls still fit beside the hog
            assertThat(h.http().rpc("quick", Rpc.send(3, "small")).json().path("result").path("ok").asBoolean()).isTrue();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> bytesInFlight() == 0);
        RawHttp.Response fits;
        try (RawHttp raw = RawHttp.connect(h.base())) {
            String body = Rpc.send(4, "x".repeat(40_000));
            fits = raw.head("POST /a2a/quick HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                    "Content-Length: " + body.length()).write(body).read();
        }
        assertThat(fits.status()).as(fits.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> bytesInFlight() == 0);
    }
}
