package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.testing.ServerTest;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: reconnaissance through error messages. A caller must not learn internal hosts and ports
 * (where agents live, what the gateway resolved), nor parser or Java internals, from the gateway's
 * errors: they name the problem and the agent id; the detail goes to the log.
 */
@ServerTest
class GatewayErrorsDoNotLeakInternalsTest {

    @TempDir
    static Path dir;

    static Harness h;
    static int closedPort;
    static RawAgent hangsUp;

    @BeforeAll
    static void start() throws IOException {
        h = new Harness(dir);
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        hangsUp = h.raw((req, body, ex) -> req.connection().close());
        h.backend("refused", "http://127.0.0.1:" + closedPort + "/")
                .backend("hangs-up", hangsUp.url())
                .start();
        Reply r = h.http().post("/agents/register", "{\"agent_id\":\"dyn-refused\",\"name\":\"n\",\"url\":\"http://127.0.0.1:"
                + closedPort + "/\"}");
        assertThat(r.status()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static void noInternals(String text) {
        assertThat(text).doesNotContain("127.0.0.1").doesNotContain(":" + closedPort)
                .doesNotContain(String.valueOf(hangsUp.port()))
                .doesNotContain("Exception").doesNotContain("java.").doesNotContain("io.vertx")
                .doesNotContain("com.fasterxml").doesNotContain("netty");
    }

    @Test
    void unreachableAgentsAreNamedNotLocated() {
        for (String id : new String[] {"refused", "dyn-refused", "hangs-up"}) {
            Reply reply = h.http().rpc(id, Rpc.send(1, "hi"));
            assertThat(reply.errorCode()).as(id).isEqualTo(-32603);
            assertThat(reply.errorMessage()).as(id).startsWith("agent unreachable: " + id);
            noInternals(reply.text());
        }
    }

    @Test
    void invalidJsonIsLocatedNotQuoted() {
        Reply reply = h.http().rpc("refused", "{\"jsonrpc\":\"2.0\",\n \"id\": 1, \"method\": tru }");

        assertThat(reply.errorCode()).isEqualTo(-32700);
        assertThat(reply.errorMessage()).matches("parse error: invalid JSON at line 2 column \\d+");
        noInternals(reply.text());
    }

    @Test
    void theRegistrysErrorsDoNotQuoteTheParser() {
        Reply reply = h.http().post("/agents/register", "{\"agent_id\": tru }");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("field").asText()).isEqualTo("body");
        assertThat(reply.text()).doesNotContain("Unrecognized token").doesNotContain("line: ");
        noInternals(reply.text());
    }
}
