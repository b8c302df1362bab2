package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.config.ConfigException;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: DNS rebinding (issue 22, M2). A page on rebind.evil.example whose name the attacker then points at
 * 127.0.0.1 is same-origin with itself: its scripts could call every agent through {@code /a2a/*}, read the
 * registry and the cards, register agents and read the metrics of a default loopback install, which asks for
 * no key. The one thing such a request cannot hide is its {@code Host}: the attacker's name. Every route
 * answers a foreign Host 421 before anything else happens (no agent is contacted); loopback names and
 * addresses with any port, the listen address, {@code publicUrl}'s host and the names in
 * {@code Server.spec.hostNames} (names, {@code *.domain} patterns, addresses; {@code *} turns the check off) are
 * ours. The Kubernetes probes answer whatever Host the kubelet sends. A
 * wildcard listen with neither publicUrl nor hostNames cannot know its names and answers any Host (it needs
 * API keys, which a rebinding page does not have).
 */
@ServerTest
class EveryDoorRefusesARebindingHostTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "rebind-key-0123456789";
    private static final String ADMIN = "rebind-admin-0123456789";
    private static final String RPC = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
            + "{\"role\":\"user\",\"messageId\":\"m1\",\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}]}}}";
    private static final String REGISTRATION = "{\"id\":\"planted\",\"name\":\"planted\",\"url\":\"http://127.0.0.1:9/\"}";

    /** Every door of the server: method, path and body (null: none). */
    private static final String[][] DOORS = {
        {"POST", "/a2a/echo", RPC},
        {"GET", "/a2a/echo/stream", null},
        {"GET", "/a2a/echo/.well-known/agent-card.json", null},
        {"GET", "/.well-known/agent-card.json", null},
        {"GET", "/agents", null},
        {"GET", "/agents/echo", null},
        {"POST", "/agents/register", REGISTRATION},
        {"POST", "/agents/heartbeat", "{\"id\":\"echo\"}"},
        {"DELETE", "/agents/echo", null},
        {"GET", "/metrics", null},
        {"GET", "/api/chat/channels", null},
        {"POST", "/api/chat/channels/echo/threads", "{\"text\":\"hi\"}"},
        {"POST", "/slack/events", "{\"type\":\"url_verification\",\"challenge\":\"c\"}"},
        {"POST", "/triggers/alert", "{}"},
        {"GET", "/", null},
        {"GET", "/app.js", null},
    };

    @TempDir
    static Path loopbackDir;
    @TempDir
    static Path publishedDir;
    @TempDir
    static Path wildcardDir;
    @TempDir
    static Path namedDir;
    @TempDir
    static Path openDir;

    static Harness loopback;
    static Harness published;
    static Harness wildcard;
    /** all interfaces, publicUrl and the in-cluster names in hostNames */
    static Harness named;
    /** loopback, hostNames ["*"]: no check */
    static Harness unchecked;
    static TestAgent agent;

    @BeforeAll
    static void start() {
        loopback = new Harness(loopbackDir);
        agent = loopback.agent(TestAgentOptions.echo("echo"));
        loopback.backend("echo", agent.url()).start();
        published = new Harness(publishedDir).listen("0.0.0.0").apiKey("ci", KEY).adminToken(ADMIN)
                .publicUrl("https://switchboard.example.com").backend("echo", agent.url()).start();
        wildcard = new Harness(wildcardDir).listen("0.0.0.0").apiKey("ci", KEY).adminToken(ADMIN)
                .backend("echo", agent.url()).start();
        named = new Harness(namedDir).listen("0.0.0.0").apiKey("ci", KEY).adminToken(ADMIN)
                .publicUrl("https://switchboard.example.com")
                .hostNames("switchboard.agents.svc", "*.internal.example", "203.0.113.7")
                .backend("echo", agent.url()).start();
        unchecked = new Harness(openDir).hostNames("*").backend("echo", agent.url()).start();
    }

    @AfterAll
    static void stop() {
        unchecked.close();
        named.close();
        wildcard.close();
        published.close();
        loopback.close();
    }

    @BeforeEach
    void clear() {
        agent.recorder().clear();
    }

    @Test
    void everyDoorOfALoopbackServerRefusesAForeignHostBeforeAnythingHappens() throws Exception {
        int port = port(loopback);
        for (String[] door : DOORS) {
            for (String host : List.of("rebind.evil.example:" + port, "rebind.evil.example", "localhost.evil.example")) {
                RawHttp.Response r = send(loopback, door, "Host: " + host);
                assertThat(r.status()).as("%s %s with Host %s: %s", door[0], door[1], host, r.body()).isEqualTo(421);
                assertThat(r.header("Content-Type")).as("%s %s", door[0], door[1]).startsWith("application/json");
                JsonNode error = JSON.readTree(r.body());
                assertThat(error.path("field").asText()).isEqualTo("Host");
                assertThat(error.path("error").asText()).isNotBlank();
            }
        }
        assertThat(agent.recorder().requests()).as("no agent was contacted").isEmpty();
        assertThat(loopback.app().registry().find("planted")).as("nothing was registered").isEmpty();
        assertThat(loopback.app().registry().find("echo")).as("nothing was removed").isPresent();
    }

    @Test
    void aLoopbackServerAnswersToLoopbackNamesAndAddressesOnAnyPort() {
        int port = port(loopback);
        for (String host : List.of("127.0.0.1:" + port, "localhost:" + port, "LocalHost", "localhost.:" + port,
                "localhost:1", "127.1.2.3:" + port, "[::1]:" + port, "[::1]", "chat.localhost:" + port)) {
            RawHttp.Response r = send(loopback, new String[] {"GET", "/agents", null}, "Host: " + host);
            assertThat(r.status()).as("Host %s: %s", host, r.body()).isEqualTo(200);
        }
        RawHttp.Response call = send(loopback, DOORS[0], "Host: localhost:" + port);
        assertThat(call.status()).as(call.body()).isEqualTo(200);
        assertThat(call.body()).contains("\"result\"");
    }

    @Test
    void theProbesAnswerWhateverHostTheKubeletSends() {
        for (Harness h : List.of(loopback, published)) {
            for (String path : List.of("/healthz", "/readyz")) {
                for (String host : List.of("10.244.1.7:8080", "rebind.evil.example")) {
                    RawHttp.Response r = send(h, new String[] {"GET", path, null}, "Host: " + host);
                    assertThat(r.status()).as("%s with Host %s", path, host).isEqualTo(200);
                }
            }
        }
    }

    @Test
    void withAPublicUrlItsHostAndLoopbackNamesAreAnsweredAndNoOther() {
        String auth = "Authorization: Bearer " + KEY;
        String[] list = {"GET", "/agents", null};
        assertThat(send(published, list, "Host: switchboard.example.com", auth).status()).isEqualTo(200);
        assertThat(send(published, list, "Host: SWITCHBOARD.example.com:443", auth).status()).isEqualTo(200);
        assertThat(send(published, list, "Host: 127.0.0.1:" + port(published), auth).status()).isEqualTo(200);
        assertThat(send(published, list, "Host: rebind.evil.example", auth).status()).isEqualTo(421);
        assertThat(send(published, list, "Host: switchboard.example.com.evil.example", auth).status()).isEqualTo(421);
        assertThat(send(published, DOORS[0], "Host: rebind.evil.example", auth).status()).isEqualTo(421);
        assertThat(agent.recorder().requests()).isEmpty();
    }

    @Test
    void aWildcardListenWithoutPublicUrlOrHostNamesAnswersAnyHost() {
        RawHttp.Response r = send(wildcard, new String[] {"GET", "/agents", null}, "Host: switchboard.internal.corp",
                "Authorization: Bearer " + KEY);
        assertThat(r.status()).isEqualTo(200);
    }

    @Test
    void hostNamesAddTheNamesAServerIsReachedByInside() {
        String auth = "Authorization: Bearer " + KEY;
        String[] list = {"GET", "/agents", null};
        for (String host : List.of("switchboard.agents.svc:8080", "SwitchBoard.Agents.Svc", "gw.internal.example",
                "a.b.internal.example:81", "203.0.113.7:8080", "switchboard.example.com", "localhost:" + port(named))) {
            assertThat(send(named, list, "Host: " + host, auth).status()).as(host).isEqualTo(200);
        }
        for (String host : List.of("internal.example", "evilinternal.example", "switchboard.agents.svc.evil.example",
                "203.0.113.8", "rebind.evil.example")) {
            assertThat(send(named, list, "Host: " + host, auth).status()).as(host).isEqualTo(421);
        }
    }

    @Test
    void hostNamesStarTurnsTheCheckOff() {
        RawHttp.Response r = send(unchecked, new String[] {"GET", "/agents", null}, "Host: rebind.evil.example");
        assertThat(r.status()).isEqualTo(200);
    }

    @Test
    void hostNamesAreReadFromTheServerResourceAndCheckedThere() {
        ConfigLoader loader = new ConfigLoader(Map.of());
        String server = """
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  hostNames: [%s]
                """;
        assertThat(loader.parse(server.formatted("switchboard.agents.svc, \"*.example.com\", 10.0.0.7, \"[fd00::1]\""),
                "t.yaml").server().hostNames())
                .containsExactly("switchboard.agents.svc", "*.example.com", "10.0.0.7", "[fd00::1]");
        for (String bad : List.of("evil.example:8080", "http://evil.example", "a b", "*evil.example")) {
            assertThatThrownBy(() -> loader.parse(server.formatted("\"" + bad + "\""), "t.yaml"))
                    .as(bad).isInstanceOf(ConfigException.class).hasMessageContaining("spec.hostNames[0]");
        }
    }

    /** One request on its own connection, over a bare socket so that Host is exactly what is given. */
    static RawHttp.Response send(Harness h, String[] door, String... headers) {
        List<String> all = new ArrayList<>(List.of(headers));
        all.add("Connection: close");
        if (door[2] != null) {
            all.add("Content-Type: application/json");
            all.add("Content-Length: " + door[2].getBytes(StandardCharsets.UTF_8).length);
        }
        try (RawHttp http = RawHttp.connect(h.base())) {
            http.head(door[0] + " " + door[1] + " HTTP/1.1", all.toArray(String[]::new));
            if (door[2] != null) {
                http.write(door[2]);
            }
            return http.read();
        }
    }

    static int port(Harness h) {
        return URI.create(h.base()).getPort();
    }
}
