package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: card poisoning. A card names the URL its reader will call; if it came from the caller's
 * {@code Host} (or an unchecked {@code X-Forwarded-Host}), one forged request would make the gateway
 * hand out cards pointing elsewhere, and a shared cache would pass them on. Card URLs come from
 * {@code publicUrl}, else from the address the connection arrived on (also for a wildcard listen);
 * forwarded headers count only from a trusted proxy; cards are {@code Cache-Control: private}.
 */
@ServerTest
class CardUrlsIgnoreHostHeaderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path plainDir;
    @TempDir
    static Path wildcardDir;
    @TempDir
    static Path proxiedDir;
    @TempDir
    static Path publicDir;

    static Harness plain;
    static Harness wildcard;
    static Harness proxied;
    static Harness published;

    @BeforeAll
    static void start() {
        // hostNames "*": these servers answer every Host, as one listening beyond loopback without publicUrl does,
        // so that what is tested is the card's URL; a server that checks Host refuses these forged ones with 421
        // before any card is made (EveryDoorRefusesARebindingHostTest)
        plain = new Harness(plainDir).hostNames("*");
        TestAgent echo = plain.agent(TestAgentOptions.echo("echo"));
        plain.backend("echo", echo.url()).start();
        wildcard = new Harness(wildcardDir).listen("0.0.0.0").backend("echo", echo.url()).start();
        proxied = new Harness(proxiedDir).hostNames("*").trustedProxies("127.0.0.0/8").backend("echo", echo.url()).start();
        published = new Harness(publicDir).hostNames("*").publicUrl("https://switchboard.example.com")
                .trustedProxies("127.0.0.0/8").backend("echo", echo.url()).start();
    }

    @AfterAll
    static void stop() {
        published.close();
        proxied.close();
        wildcard.close();
        plain.close();
    }

    /** GETs a card over a bare socket, so that Host is exactly what the attacker sends. */
    private static RawHttp.Response card(Harness h, String path, String... headers) {
        try (RawHttp http = RawHttp.connect(h.base())) {
            java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of("A2A-Version: 1.0", "Connection: close"));
            all.addAll(java.util.List.of(headers));
            if (all.stream().noneMatch(x -> x.regionMatches(true, 0, "Host:", 0, 5))) {
                all.add("Host: gateway.local"); // HTTP/1.1 needs one
            }
            return http.head("GET " + path + " HTTP/1.1", all.toArray(String[]::new)).read();
        }
    }

    private static String url(RawHttp.Response r) throws Exception {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode card = JSON.readTree(r.body());
        return card.path("supportedInterfaces").get(0).path("url").asText();
    }

    private static final String AGENT_CARD = "/a2a/echo/.well-known/agent-card.json";
    private static final String PLATFORM_CARD = "/.well-known/agent-card.json";

    @Test
    void aForgedHostDoesNotChangeTheCardUrls() throws Exception {
        for (String path : new String[] {AGENT_CARD, PLATFORM_CARD}) {
            String url = url(card(plain, path, "Host: evil.example"));
            assertThat(url).as(path).startsWith(plain.base() + "/a2a").doesNotContain("evil");
        }
    }

    @Test
    void forwardedHeadersFromAnUntrustedCallerAreIgnored() throws Exception {
        String url = url(card(plain, AGENT_CARD, "Host: evil.example", "X-Forwarded-Host: evil.example",
                "X-Forwarded-Proto: https"));
        assertThat(url).isEqualTo(plain.base() + "/a2a/echo");
    }

    @Test
    void aWildcardListenUsesTheAddressTheConnectionArrivedOn() throws Exception {
        String url = url(card(wildcard, AGENT_CARD, "Host: evil.example"));
        assertThat(url).isEqualTo(wildcard.base() + "/a2a/echo");
    }

    @Test
    void aTrustedProxysForwardedHostAndProtoAreUsedWhenWellFormed() throws Exception {
        assertThat(url(card(proxied, AGENT_CARD, "Host: internal:1", "X-Forwarded-Host: gw.example.com",
                "X-Forwarded-Proto: https"))).isEqualTo("https://gw.example.com/a2a/echo");
        // garbage is not pasted into the card
        assertThat(url(card(proxied, AGENT_CARD, "X-Forwarded-Host: evil.example/phish?x=",
                "X-Forwarded-Proto: javascript"))).isEqualTo(proxied.base() + "/a2a/echo");
    }

    @Test
    void publicUrlWinsOverEverything() throws Exception {
        for (String path : new String[] {AGENT_CARD, PLATFORM_CARD}) {
            assertThat(url(card(published, path, "Host: evil.example", "X-Forwarded-Host: evil.example")))
                    .as(path).startsWith("https://switchboard.example.com/a2a");
        }
    }

    @Test
    void cardsAreNotForSharedCaches() {
        for (String path : new String[] {AGENT_CARD, PLATFORM_CARD}) {
            assertThat(card(plain, path).header("Cache-Control")).as(path).isEqualTo("private, max-age=30");
        }
    }
}
