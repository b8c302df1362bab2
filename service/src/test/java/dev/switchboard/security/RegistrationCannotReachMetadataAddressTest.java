package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: whoever may register an agent points it at the cloud's metadata service (or another
 * link-local address) and reads credentials through the gateway; or hides credentials in the URL, or
 * steers the agent-card path with a query or fragment. All are refused at registration with 400
 * naming {@code url}, and nothing is registered. Loopback stays allowed (no allowedHosts set).
 */
@ServerTest
class RegistrationCannotReachMetadataAddressTest {

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent agent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        agent = h.raw(RawAgent.fixed(200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true}}"));
        h.start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static Reply register(String id, String url) {
        return h.http().post("/agents/register",
                "{\"agent_id\":\"" + id + "\",\"name\":\"n\",\"url\":\"" + url.replace("\"", "\\\"") + "\"}");
    }

    private static void refused(String id, String url) {
        Reply reply = register(id, url);
        assertThat(reply.status()).as(url + " → " + reply).isEqualTo(400);
        assertThat(reply.json().path("field").asText()).as(url).isEqualTo("url");
        assertThat(h.http().get("/agents/" + id).status()).as(url + " must not be registered").isEqualTo(404);
    }

    @Test
    void metadataAndLinkLocalAddressesAreRefused() {
        List<String> urls = List.of(
                "http://169.254.169.254/latest/meta-data/",  // AWS, GCP, Azure, Oracle
                "http://169.254.170.2/v2/credentials",         // ECS task credentials: link-local
                "http://169.254.0.1:8080/",
                "http://[fe80::1]/",
                "http://[fe80::a9fe:a9fe%25eth0]/",
                "http://[fd00:ec2::254]/latest/meta-data/",   // AWS over IPv6
                "http://100.100.100.200/latest/meta-data/",    // Alibaba
                "http://[::ffff:169.254.169.254]/",            // the same address, IPv4-mapped
                "http://[::169.254.169.254]/",                 // ... IPv4-compatible
                "http://[64:ff9b::a9fe:a9fe]/",                // ... through NAT64
                "http://0.0.0.0:8080/",
                "http://metadata.google.internal/computeMetadata/v1/",
                "http://METADATA.GOOGLE.INTERNAL./computeMetadata/v1/",
                "http://metadata/computeMetadata/v1/",
                "http://instance-data.ec2.internal/latest/");
        int i = 0;
        for (String url : urls) {
            refused("meta-" + i++, url);
        }
    }

    @Test
    void urlsWithUserinfoQueryOrFragmentAreRefused() {
        refused("userinfo", "http://user:s3cret-pass@127.0.0.1:" + agent.port() + "/");
        refused("query", "http://127.0.0.1:" + agent.port() + "/a2a?x=1");
        // a fragment or query would otherwise turn ".../.well-known/agent-card.json" into a different path
        refused("fragment", "http://127.0.0.1:" + agent.port() + "/a2a#");
        refused("query-empty", "http://127.0.0.1:" + agent.port() + "/a2a?");
    }

    @Test
    void theRefusalNeverEchoesAPasswordFromTheUrl() {
        Reply reply = register("leaky", "http://user:s3cret-pass@127.0.0.1:1/");
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.text()).doesNotContain("s3cret-pass");
    }

    @Test
    void loopbackAgentsStayAllowedByDefault() {
        Reply registered = register("local-agent", agent.url());
        assertThat(registered.status()).as(registered.toString()).isEqualTo(200);

        Reply called = h.http().rpc("local-agent", Rpc.send(1, "hi"));
        assertThat(called.json().path("result").path("ok").asBoolean()).as(called.toString()).isTrue();
    }

    @Test
    void aNamedAgentIsCalledAtTheCheckedAddressWithItsOwnHostHeader() {
        assertThat(register("named-agent", "http://localhost:" + agent.port() + "/").status()).isEqualTo(200);
        agent.clear();

        Reply called = h.http().rpc("named-agent", Rpc.send(1, "hi"));

        assertThat(called.json().path("result").path("ok").asBoolean()).as(called.toString()).isTrue();
        assertThat(agent.last().header("Host")).isEqualTo("localhost:" + agent.port());
    }
}
