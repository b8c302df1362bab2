package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.chat.web.ChatEvents;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.RawHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, bounds: the web chat's live streams hold a listener on the thread and a keepalive timer. Clients
 * that leave — after the stream started, or before its response did (while the thread was being looked
 * up) — must leave nothing behind, or a client that opens and drops streams in a loop fills the server.
 * Counted in {@link ChatEvents}.
 */
@ServerTest
class ChatFreesStreamsOfLeavingClientsTest {

    private static final int CLIENTS = 20;

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent agent;
    static SwitchboardApp app;
    static ChatApi chat;
    static RawHttp http;
    static ChatEvents events;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("echo"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("db"), "").webBackend("echo", agent.url(), null)).start().app();
        chat = new ChatApi(app.baseUrl());
        http = new RawHttp(app.baseUrl());
        events = app.webChat().events();
    }

    @AfterAll
    static void stop() {
        TestServers.stop(app, agent, vertx);
    }

    @Test
    void clientsThatLeaveAnOpenStreamLeaveNoListener() throws Exception {
        String threadId = chat.newThread("echo", "hello").threadId();
        List<Socket> open = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            Socket s = request(threadId);
            readUntil(s.getInputStream(), ": connected");
            open.add(s);
        }
        assertThat(events.listenerCount()).as("one listener per open stream").isEqualTo(CLIENTS);
        for (Socket s : open) {
            s.close();
        }
        Awaitility.await("listeners freed").atMost(Duration.ofSeconds(30)).until(() -> events.listenerCount() == 0);
    }

    @Test
    void clientsThatLeaveBeforeTheResponseStartedLeaveNoListener() throws Exception {
        String threadId = chat.newThread("echo", "hello again").threadId();
        for (int i = 0; i < CLIENTS; i++) {
            // the request reaches the server; the client is gone before the thread lookup answers
            request(threadId).close();
        }
        // one client that stays proves the server got this far; when it leaves, nothing may remain
        Socket last = request(threadId);
        readUntil(last.getInputStream(), ": connected");
        last.close();
        Awaitility.await("listeners freed").atMost(Duration.ofSeconds(30))
                .during(Duration.ofSeconds(1)).until(() -> events.listenerCount() == 0);
    }

    private static Socket request(String threadId) throws Exception {
        Socket s = http.open();
        OutputStream out = s.getOutputStream();
        out.write(http.head("GET", "/api/chat/threads/" + threadId + "/events", Map.of("Accept", "text/event-stream"), null)
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return s;
    }

    private static void readUntil(InputStream in, String marker) throws Exception {
        StringBuilder seen = new StringBuilder();
        byte[] buf = new byte[1024];
        while (seen.indexOf(marker) < 0) {
            int n = in.read(buf);
            if (n < 0) {
                throw new AssertionError("stream closed before " + marker + ": " + seen);
            }
            seen.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        }
    }
}
