package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.HttpLimits;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgentOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * O7 bounds in time: a client that opens a connection and never finishes its headers, one that sends a body
 * slowly, and one that keeps an idle connection are disconnected; a request in progress (a slow agent) is not.
 * Each check waits for the server's action with a bound far above the configured timeout, so a loaded machine
 * only makes it slower, never wrong.
 */
@ServerTest
class SlowClientsAreDisconnectedTest {

    private static final int GENEROUS_MILLIS = 30_000;

    private SwitchboardFixture sb;
    @TempDir
    Path dir;

    @BeforeEach
    void start() {
        HttpLimits tight = new HttpLimits(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), 10_000);
        sb = SwitchboardFixture.builder()
                .agent("slowpoke", TestAgentOptions.echo("slowpoke"))
                .config(agents -> SwitchboardConfig.empty()
                        .withServer(ServerSpec.defaults().withListen("127.0.0.1", 0)
                                .withStore("sqlite:" + dir.resolve("switchboard.db")).withHttp(tight))
                        .withBackends(List.of(new AgentBackendSpec("slowpoke", "default", agents.url("slowpoke"),
                                Dialect.A2A, null, null, null, Map.of(), null, AgentLimits.DEFAULTS,
                                List.of()))))
                .start();
    }

    @AfterEach
    void stop() {
        sb.close();
    }

    @Test
    void aConnectionThatNeverSendsItsHeadersIsClosed() throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write("POST /a2a/slowpoke HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readUntilClosed(s.getInputStream())).isEmpty();
        }
    }

    @Test
    void aBodyThatDoesNotArriveInTimeIsAnswered408AndClosed() throws IOException {
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /a2a/slowpoke HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"jsonrpc\":").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String reply = readUntilClosed(s.getInputStream());
            assertThat(reply).startsWith("HTTP/1.1 408").contains("request body not received");
        }
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedAfterItsRequest() throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String reply = readUntilClosed(s.getInputStream());
            assertThat(reply).startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void aRequestInProgressOutlivesTheIdleTimeout() throws IOException {
        String body = """
                {"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1",
                "role":"user","parts":[{"kind":"text","text":"/slow 3000\\nstill here"}]}}}""";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (Socket s = connect()) {
            s.getOutputStream().write(("POST /a2a/slowpoke HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().write(bytes);
            String reply = readUntilClosed(s.getInputStream());
            // three idle timeouts passed while the agent worked; the reply came, then the idle connection closed
            assertThat(reply).startsWith("HTTP/1.1 200").contains("still here");
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", sb.app().server().port());
        s.setSoTimeout(GENEROUS_MILLIS);
        return s;
    }

    /** Everything the server sends until it closes the connection; fails if it is still open after the bound. */
    private static String readUntilClosed(InputStream in) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) != -1; ) {
                got.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open for " + GENEROUS_MILLIS + " ms; got: " + got);
        } catch (java.net.SocketException e) {
            // a reset is a close too
        }
        return got.toString(StandardCharsets.UTF_8);
    }
}
