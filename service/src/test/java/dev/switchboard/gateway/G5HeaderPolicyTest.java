package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.config.SecretRef;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G5: caller headers starting with {@code X-} are forwarded, except {@code X-Forwarded-For};
 * {@code Authorization}, {@code Cookie}, {@code Proxy-Authorization} and hop-by-hop headers are
 * stripped; {@code A2A-Version}, {@code A2A-Extensions}, {@code X-A2A-Extensions}, {@code Accept},
 * {@code traceparent} and {@code tracestate} pass through. Switchboard adds the caller's identity as
 * {@code X-Switchboard-Caller-ID} (the name is configurable) and the AgentBackend's static headers
 * and credentials.
 */
@ServerTest
class G5HeaderPolicyTest {

    private static final String BACKEND_TOKEN = "backend-token-g5-secret";

    @TempDir
    static Path dir;
    @TempDir
    static Path kubemqDir;

    static Harness h;
    static Harness kubemq;
    static TestAgent agent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        agent = h.agent(TestAgentOptions.echo("headers"));
        h.secret("hdr-token", "token", BACKEND_TOKEN)
                .backend("plain", agent.url())
                .backend(Harness.spec("static", agent.url(), AgentLimits.DEFAULTS,
                        Map.of("X-Team", "sre", "X-Static", "from-backend"), new SecretRef("hdr-token", "token"), List.of()))
                .start();
        kubemq = new Harness(kubemqDir);
        kubemq.callerIdHeader("X-KubeMQ-Caller-ID").backend("plain", agent.url()).start();
    }

    @AfterAll
    static void stop() {
        kubemq.close();
        h.close();
    }

    @BeforeEach
    void clear() {
        agent.recorder().clear();
    }

    private static final String[] CALLER_HEADERS = {
        "X-Custom-Header", "my-custom-value",
        "X-Request-ID", "req-42",
        "X-Forwarded-For", "203.0.113.9",
        "Authorization", "Bearer caller-secret",
        "Cookie", "session=abc",
        "Proxy-Authorization", "Basic cHJveHk6c2VjcmV0",
        "Connection", "keep-alive, X-Hop-Named",
        "X-Hop-Named", "named-in-connection",
        "Keep-Alive", "timeout=5",
        "TE", "trailers",
        "Trailer", "X-Trailing",
        "Upgrade", "example/1",
        "Proxy-Connection", "keep-alive",
        "A2A-Version", "0.3",
        "A2A-Extensions", "urn:ext:one",
        "X-A2A-Extensions", "urn:ext:two",
        "Accept", "application/json, text/event-stream",
        "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "tracestate", "vendor=opaque",
        "User-Agent", "g5-test",
    };

    @Test
    void g5_forwardsXHeadersAndA2aHeadersAndStripsCredentialsAndHopByHopHeaders() {
        Reply reply = h.http().rpc("plain", Rpc.send(1, "headers"), CALLER_HEADERS);
        assertThat(reply.json().has("result")).as(reply.toString()).isTrue();
        RecordedRequest seen = agent.recorder().lastRequest();

        // forwarded: X-* and A2A's own headers, Accept, W3C trace context
        assertThat(seen.header("X-Custom-Header")).isEqualTo("my-custom-value");
        assertThat(seen.header("X-Request-ID")).isEqualTo("req-42");
        assertThat(seen.header("A2A-Version")).isEqualTo("0.3");
        assertThat(seen.header("A2A-Extensions")).isEqualTo("urn:ext:one");
        assertThat(seen.header("X-A2A-Extensions")).isEqualTo("urn:ext:two");
        assertThat(seen.header("Accept")).isEqualTo("application/json, text/event-stream");
        assertThat(seen.header("traceparent")).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assertThat(seen.header("tracestate")).isEqualTo("vendor=opaque");
        // stripped: X-Forwarded-For, credentials, hop-by-hop headers and what Connection names
        for (String stripped : List.of("X-Forwarded-For", "Authorization", "Cookie", "Proxy-Authorization",
                "Keep-Alive", "TE", "Trailer", "Upgrade", "Proxy-Connection", "X-Hop-Named")) {
            assertThat(seen.headers().contains(stripped)).as(stripped + " reached the agent").isFalse();
        }
        String connection = seen.header("Connection");
        if (connection != null) {
            assertThat(connection).doesNotContainIgnoringCase("X-Hop-Named");
        }
        // the body is JSON whatever the caller's headers said
        assertThat(seen.header("Content-Type")).startsWith("application/json");
    }

    @Test
    void g5_addsTheCallersIdentityReplacingACallerSentCopy() {
        h.http().rpc("plain", Rpc.send(1, "who am I"), "X-Switchboard-Caller-ID", "forged-admin");
        RecordedRequest seen = agent.recorder().lastRequest();

        // no API keys configured: the caller is known by its remote address
        assertThat(seen.headers().getAll("X-Switchboard-Caller-ID")).containsExactly("127.0.0.1");
    }

    @Test
    void g5_theCallerIdHeaderNameIsConfigurable() {
        kubemq.http().rpc("plain", Rpc.send(1, "kubemq style"), "X-KubeMQ-Caller-ID", "forged");
        RecordedRequest seen = agent.recorder().lastRequest();

        assertThat(seen.headers().getAll("X-KubeMQ-Caller-ID")).containsExactly("127.0.0.1");
        assertThat(seen.headers().contains("X-Switchboard-Caller-ID")).isFalse();
    }

    @Test
    void g5_addsTheBackendsStaticHeadersAndCredentialsWhichWinOverTheCallers() {
        h.http().rpc("static", Rpc.send(1, "static headers"), "X-Team", "caller-team",
                "Authorization", "Bearer caller-secret", "X-Other", "kept");
        RecordedRequest seen = agent.recorder().lastRequest();

        assertThat(seen.headers().getAll("X-Team")).containsExactly("sre");
        assertThat(seen.header("X-Static")).isEqualTo("from-backend");
        assertThat(seen.headers().getAll("Authorization")).containsExactly("Bearer " + BACKEND_TOKEN);
        assertThat(seen.header("X-Other")).isEqualTo("kept");
        assertThat(seen.headers().getAll("X-Switchboard-Caller-ID")).containsExactly("127.0.0.1");
    }
}
