package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.config.HttpLimits;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** O7 bounds in number: connections beyond {@code http.maxConnections} are closed at once; freed ones are reusable. */
@ServerTest
class ConnectionFloodIsCappedTest {

    @TempDir
    Path dir;

    @Test
    void connectionsBeyondTheCapAreClosedAndTheServerStillAnswersOnceSomeLeave() throws IOException {
        HttpLimits cap = new HttpLimits(Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(5), 4);
        try (SwitchboardFixture sb = SwitchboardFixture.builder().config(SwitchboardConfig.empty()
                .withServer(ServerSpec.defaults().withListen("127.0.0.1", 0)
                        .withStore("sqlite:" + dir.resolve("switchboard.db")).withHttp(cap))).start()) {
            int port = sb.app().server().port();
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    Socket s = new Socket("127.0.0.1", port);
                    held.add(s);
                    // each one proves it is served, so all four are counted before the fifth arrives
                    assertThat(health(s)).startsWith("HTTP/1.1 200");
                }
                try (Socket fifth = new Socket("127.0.0.1", port)) {
                    fifth.setSoTimeout(30_000);
                    assertThat(closedWithoutAnswer(fifth)).isTrue();
                }
                held.remove(0).close();
                // the freed place is taken again once the server has seen the close
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                    try (Socket again = new Socket("127.0.0.1", port)) {
                        again.setSoTimeout(30_000);
                        return health(again).startsWith("HTTP/1.1 200");
                    } catch (IOException e) {
                        return false;
                    }
                });
            } finally {
                // the sockets before the server (closing the fixture closes it)
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    private static String health(Socket s) throws IOException {
        s.setSoTimeout(30_000);
        s.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] buf = new byte[1024];
        int n = s.getInputStream().read(buf);
        return n < 0 ? "" : new String(buf, 0, n, StandardCharsets.US_ASCII);
    }

    private static boolean closedWithoutAnswer(Socket s) throws IOException {
        try {
            s.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            return in.read() == -1;
        } catch (SocketException e) {
            return true;
        }
    }
}
