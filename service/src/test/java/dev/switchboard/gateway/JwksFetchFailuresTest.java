package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.nimbusds.jose.jwk.ECKey;
import dev.switchboard.auth.JwtIssuer;
import dev.switchboard.config.AuthSettings;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.Tokens;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.http.HttpServer;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: an issuer whose JWKS cannot be had — nothing listening, an HTTP 500, a document over the 64 KiB bound —
 * leaves its callers with a clear 401 (unknown key, the JWKS could not be fetched), never a 5xx, and the agent is not
 * contacted. Each failing endpoint serves the issuer's real keys (with the 500, or past the bound), so a gateway that
 * took them anyway would admit the token. The warning logged names the jwksUri without its credentials.
 */
@ServerTest
class JwksFetchFailuresTest {

    private static final String AUDIENCE = "switchboard";
    private static final String CLOSED = "https://idp.closed.test/";
    private static final String ERROR = "https://idp.error.test/";
    private static final String HUGE = "https://idp.huge.test/";

    @TempDir
    static Path dir;
    static Harness sb;
    static TestAgent agent;
    static final ECKey KEY = Tokens.ec("fetch-ec");
    static HttpServer failing;
    static final AtomicInteger errorFetches = new AtomicInteger();
    static final AtomicInteger hugeFetches = new AtomicInteger();
    static ListAppender<ILoggingEvent> logs;

    @BeforeAll
    static void start() throws Exception {
        logs = new ListAppender<>();
        logs.start();
        logger().addAppender(logs);
        sb = new Harness(dir);
        agent = sb.agent(TestAgentOptions.echo("guarded"));
        String jwks = Tokens.jwks(KEY);
        // the real keys, padded past the 64 KiB bound with a member a JWKS parser ignores
        String huge = jwks.substring(0, jwks.lastIndexOf('}')) + ",\"padding\":\"" + "x".repeat(70_000) + "\"}";
        failing = sb.vertx.createHttpServer().requestHandler(r -> {
            if (r.path().equals("/error")) {
                errorFetches.incrementAndGet();
                r.response().setStatusCode(500).putHeader("Content-Type", "application/json").end(jwks);
            } else {
                hugeFetches.incrementAndGet();
                r.response().putHeader("Content-Type", "application/json").end(huge);
            }
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String base = "http://127.0.0.1:" + failing.actualPort();
        sb.backend("guarded", agent.url())
                // a refetch for every unknown kid: each call below tries the endpoint again
                .auth(new AuthSettings(List.of(
                        new JwtIssuer(CLOSED, List.of(AUDIENCE), URI.create("http://idp-user:hunter2-pw@127.0.0.1:"
                                + closedPort + "/jwks.json?api_key=sekrit-query"), null, "sub"),
                        new JwtIssuer(ERROR, List.of(AUDIENCE), URI.create(base + "/error"), null, "sub"),
                        new JwtIssuer(HUGE, List.of(AUDIENCE), URI.create(base + "/huge"), null, "sub")),
                        null, null, Duration.ZERO))
                .start();
    }

    private static ch.qos.logback.classic.Logger logger() {
        return (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("dev.switchboard.auth.IssuerKeys");
    }

    @AfterAll
    static void stop() {
        logger().detachAppender(logs);
        sb.close();
        failing.close();
    }

    private static void assertUnknownKey(String issuer) {
        String token = Tokens.sign(KEY, Tokens.claims(issuer, AUDIENCE, "alice").build());
        Reply r = sb.http().rpc("guarded", Rpc.send(1, "hi"), "Authorization", "Bearer " + token);
        assertThat(r.status()).as(issuer).isEqualTo(401);
        assertThat(r.header("WWW-Authenticate")).startsWith("Bearer error=\"invalid_token\"").contains("unknown key")
                .contains("could not be fetched");
        assertThat(r.errorMessage()).contains("unknown key").contains("its JWKS could not be fetched");
        assertThat(r.text()).doesNotContain(token);
    }

    @Test
    void nothingListeningAtTheJwksUriIs401() {
        assertUnknownKey(CLOSED);
        assertUnknownKey(CLOSED);
        assertThat(agent.recorder().requests()).isEmpty();
    }

    @Test
    void aJwksAnsweredWithHttp500Is401() {
        assertUnknownKey(ERROR);
        assertThat(errorFetches.get()).as("the endpoint was asked").isPositive();
        assertThat(agent.recorder().requests()).isEmpty();
    }

    @Test
    void aJwksOverTheBoundIs401() {
        assertUnknownKey(HUGE);
        assertThat(hugeFetches.get()).as("the endpoint was asked").isPositive();
        assertThat(agent.recorder().requests()).isEmpty();
    }

    @Test
    void theWarningNamesTheJwksUriWithoutItsCredentials() {
        assertUnknownKey(CLOSED);
        await().until(() -> logs.list.stream().anyMatch(e -> e.getFormattedMessage().contains(CLOSED)));
        List<String> lines = logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).filteredOn(l -> l.contains(CLOSED)).isNotEmpty()
                .allSatisfy(l -> assertThat(l).contains("could not be fetched from http://127.0.0.1:")
                        .doesNotContain("hunter2").doesNotContain("idp-user").doesNotContain("sekrit"));
        assertThat(lines).filteredOn(l -> l.contains(HUGE) || l.contains(ERROR))
                .allSatisfy(l -> assertThat(l).doesNotContain("padding").doesNotContain("\"keys\""));
    }
}
