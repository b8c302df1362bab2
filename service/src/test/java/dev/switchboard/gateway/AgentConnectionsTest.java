package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.Wait;
import dev.switchboard.testing.ServerTest;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.net.SelfSignedCertificate;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway's own connections to agents ({@link AgentConnections}): kept alive and reused between calls, never
 * reused when the agent or the reply says otherwise, closed when idle too long or when the gateway closes, TLS with
 * the certificate checked, informational heads skipped. Real sockets: a raw agent through the gateway, and the pool on
 * its own against Vert.x servers.
 */
@ServerTest
class AgentConnectionsTest {

    private static final String OK = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"message\",\"messageId\":\"m\","
            + "\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":\"ok\"}]}}";

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent keeps;
    static RawAgent closes;
    static RawAgent hangsUp;
    static RawAgent hints;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        keeps = h.raw(RawAgent.fixed(200, "application/json", OK));
        closes = h.raw((req, body, ex) -> req.response().putHeader("Content-Type", "application/json")
                .putHeader("Connection", "close").end(OK));
        // answers, then closes the connection as soon as the answer is out: an idle connection the agent dropped
        hangsUp = h.raw((req, body, ex) -> req.response().putHeader("Content-Type", "application/json").end(OK)
                .onComplete(v -> req.connection().close()));
        hints = h.raw((req, body, ex) -> {
            MultiMap early = HeadersMultiMap.httpHeaders().add("Link", "</style.css>; rel=preload");
            req.response().writeEarlyHints(early).onComplete(v ->
                    req.response().putHeader("Content-Type", "application/json").end(OK));
        });
        h.backend("keeps", keeps.url())
                .backend("closes", closes.url())
                .backend("hangs-up", hangsUp.url())
                .backend("hints", hints.url())
                .start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static Reply call(String agent, int id) {
        return h.http().rpc(agent, Rpc.send(id, "hello"));
    }

    private static int connections(RawAgent agent) {
        IdentityHashMap<AtomicBoolean, Boolean> distinct = new IdentityHashMap<>();
        agent.exchanges().forEach(e -> distinct.put(e.connectionClosed(), true));
        return distinct.size();
    }

    @Test
    void sequentialCallsReuseTheAgentConnection() {
        for (int i = 1; i <= 6; i++) {
            assertThat(call("keeps", i).text()).isEqualTo(OK);
        }
        assertThat(keeps.exchanges()).hasSize(6);
        // one per event loop at most: a call stays on the loop that took it, with that loop's pool
        assertThat(connections(keeps)).isLessThanOrEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(keeps.exchanges()).allSatisfy(e -> assertThat(e.connectionClosed()).isFalse());
    }

    @Test
    void aReplySayingConnectionCloseIsNotReused() {
        for (int i = 1; i <= 4; i++) {
            assertThat(call("closes", i).text()).isEqualTo(OK);
        }
        assertThat(connections(closes)).isEqualTo(4);
        await().untilAsserted(() -> assertThat(closes.exchanges()).allSatisfy(e -> assertThat(e.connectionClosed()).isTrue()));
    }

    @Test
    void aConnectionTheAgentClosedWhileIdleIsNotUsedAgain() {
        for (int i = 1; i <= 4; i++) {
            assertThat(call("hangs-up", i).text()).isEqualTo(OK);
            // the next call starts only once the gateway has seen the close: it must open a new connection
            await().untilAsserted(() -> assertThat(hangsUp.last().connectionClosed()).isTrue());
        }
        assertThat(connections(hangsUp)).isEqualTo(4);
    }

    @Test
    void informationalHeadsBeforeTheReplyAreSkipped() {
        Reply reply = call("hints", 1);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text()).isEqualTo(OK);
    }

    // ---- the pool on its own ----

    /** What one exchange delivered. */
    static final class Recorded implements AgentReply {
        final CompletableFuture<Integer> status = new CompletableFuture<>();
        final StringBuilder body = new StringBuilder();
        final CompletableFuture<String> ended = new CompletableFuture<>();

        @Override
        public void head(HttpResponse head) {
            status.complete(head.status().code());
        }

        @Override
        public void content(Buffer chunk) {
            body.append(chunk.toString(StandardCharsets.UTF_8));
        }

        @Override
        public void end() {
            ended.complete(body.toString());
        }

        @Override
        public void failed(Throwable cause) {
            status.completeExceptionally(cause);
            ended.completeExceptionally(cause);
        }
    }

    private static Recorded post(Vertx vertx, AgentConnections pool, String url) {
        return post(vertx, pool, url, 5_000);
    }

    private static Recorded post(Vertx vertx, AgentConnections pool, String url, int connectTimeoutMs) {
        Recorded r = new Recorded();
        vertx.runOnContext(v -> {
            HttpHeaders headers = HeadersMultiMap.httpHeaders().add("Content-Type", "application/json");
            pool.post(UpstreamTarget.of(url), null, UpstreamTarget.of(url).uri(null), headers, Buffer.buffer(Rpc.send(1, "x")),
                    connectTimeoutMs, r);
        });
        return r;
    }

    private static String result(CompletableFuture<String> f) throws Exception {
        return f.get(30, TimeUnit.SECONDS);
    }

    @Test
    void idleConnectionsAreClosedAfterTheKeepAliveAndAllOnClose() throws Exception {
        Vertx vertx = SwitchboardApp.newVertx();
        RawAgent agent = Wait.on(RawAgent.start(vertx, RawAgent.fixed(200, "application/json", OK)));
        AgentConnections pool = new AgentConnections(vertx, null, Duration.ofMillis(300));
        try {
            assertThat(result(post(vertx, pool, agent.url()).ended)).isEqualTo(OK);
            // unused for longer than the keep-alive: the gateway closes it
            await().untilAsserted(() -> assertThat(agent.last().connectionClosed()).isTrue());
            assertThat(pool.idleConnections()).isZero();

            AgentConnections longLived = new AgentConnections(vertx, null, Duration.ofMinutes(5));
            assertThat(result(post(vertx, longLived, agent.url()).ended)).isEqualTo(OK);
            assertThat(agent.last().connectionClosed()).isFalse();
            Wait.on(longLived.close());
            await().untilAsserted(() -> assertThat(agent.last().connectionClosed()).isTrue());
            // and nothing is sent once closed
            Recorded after = post(vertx, longLived, agent.url());
            assertThat(after.ended).failsWithin(Duration.ofSeconds(30));
            assertThat(agent.exchanges()).hasSize(2);
        } finally {
            Wait.on(pool.close());
            Wait.on(vertx.close());
        }
    }

    @Test
    void tlsAgentsAreCalledWithTheirCertificateChecked() throws Exception {
        Vertx vertx = SwitchboardApp.newVertx();
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        HttpServer tls = Wait.on(vertx.createHttpServer(new HttpServerOptions().setSsl(true).setHost("127.0.0.1").setPort(0)
                        .setKeyCertOptions(cert.keyCertOptions()))
                .requestHandler(req -> req.body().onSuccess(b -> req.response()
                        .putHeader("Content-Type", "application/json").end(OK)))
                .listen());
        String byName = "https://localhost:" + tls.actualPort() + "/";
        String byAddress = "https://127.0.0.1:" + tls.actualPort() + "/";
        SslContext trusting = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                .trustManager(new java.io.File(cert.certificatePath())).build();
        AgentConnections trusts = new AgentConnections(vertx, trusting, Duration.ofMinutes(1));
        AgentConnections defaults = new AgentConnections(vertx);
        try {
            assertThat(result(post(vertx, trusts, byName).ended)).isEqualTo(OK);
            // a certificate for "localhost" does not name 127.0.0.1: refused even though the certificate is trusted
            assertThat(post(vertx, trusts, byAddress).ended).failsWithin(Duration.ofSeconds(30));
            // the JDK's trust store does not know a self-signed certificate
            assertThat(post(vertx, defaults, byName).ended).failsWithin(Duration.ofSeconds(30));
        } finally {
            Wait.on(trusts.close());
            Wait.on(defaults.close());
            Wait.on(vertx.close());
        }
    }

    @Test
    void aConnectThatHangsTimesOutAndIsNotCalledRefused() throws Exception {
        // a listener whose accept queue is full and never drained: the kernel drops further SYNs, the connect hangs
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<SocketChannel> queued = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    SocketChannel c = SocketChannel.open();
                    c.configureBlocking(false);
                    c.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort()));
                    queued.add(c);
                }
                Vertx vertx = SwitchboardApp.newVertx();
                AgentConnections pool = new AgentConnections(vertx);
                try {
                    Recorded r = post(vertx, pool, "http://127.0.0.1:" + full.getLocalPort() + "/", 300);
                    assertThat(r.ended).failsWithin(Duration.ofSeconds(30))
                            .withThrowableThat().withCauseInstanceOf(ConnectTimeoutException.class);
                    Throwable cause = r.ended.handle((ok, failure) -> failure).get();
                    assertThat(AgentFailures.unreachableBecause(cause)).isEqualTo(": connection timed out");
                    assertThat(AgentFailures.unreachableBecause(new java.net.ConnectException("refused")))
                            .isEqualTo(": connection refused");
                } finally {
                    Wait.on(pool.close());
                    Wait.on(vertx.close());
                }
            } finally {
                for (SocketChannel c : queued) {
                    c.close();
                }
            }
        }
    }

    @Test
    void aRefusedConnectIsReportedAsAFailure() throws Exception {
        Vertx vertx = SwitchboardApp.newVertx();
        HttpServer closed = Wait.on(vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(req -> req.response().end()).listen());
        int port = closed.actualPort();
        Wait.on(closed.close());
        AgentConnections pool = new AgentConnections(vertx);
        try {
            Recorded r = post(vertx, pool, "http://127.0.0.1:" + port + "/");
            assertThat(r.ended).failsWithin(Duration.ofSeconds(30))
                    .withThrowableThat().withCauseInstanceOf(java.net.ConnectException.class);
        } finally {
            Wait.on(pool.close());
            Wait.on(vertx.close());
        }
    }
}
