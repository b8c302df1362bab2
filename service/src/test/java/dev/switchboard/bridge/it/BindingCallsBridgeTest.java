package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.BridgeConfig;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the bridge's calls to an agent share across a Binding and across a turn, seen from the agent (its
 * Recorder): the card, fetched per Binding (seed: Discovery and transport), and the W3C trace context (seed: What
 * Agent Kourier sends).
 */
class BindingCallsBridgeTest {

    @TempDir
    static Path dir;

    static Vertx vertx;
    static SwitchboardApp app;
    static ChatApi chat;
    static TestAgent cards;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        BridgeConfig config = BridgeConfig.server(dir.resolve("chat.db"), false, BridgeConfig.QUICK_CONTRACT);
        cards = TestAgent.start(vertx, TestAgentOptions.echo("cards").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/echo"), 0).await();
        config.webAgent("cards", cards.url(), false);
        app = config.start(vertx);
        chat = new ChatApi(app.baseUrl());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        if (cards != null) {
            cards.close().await();
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }

    private static List<RecordedRequest> cardFetches(TestAgent agent) {
        return agent.recorder().requests().stream()
                .filter(r -> "GET".equals(r.httpMethod()) && r.path().endsWith("/.well-known/agent-card.json")).toList();
    }

    @Test
    @DisplayName("Discovery: the card is fetched on first use and again when the URL or credentials change — per "
            + "Binding, not per thread: several new threads of one Binding cost one card fetch")
    void theCardIsFetchedOncePerBindingNotPerThread() {
        List<Sent> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            threads.add(chat.newThread("cards", "thread " + i));
        }
        threads.forEach(t -> chat.awaitState(t, "completed"));
        Sent later = chat.newThread("cards", "one more, later");
        chat.awaitState(later, "completed");

        assertThat(cardFetches(cards)).as("one card fetch for five threads of one Binding").hasSize(1);
        assertThat(cards.recorder().rpcRequests().stream().filter(RecordedRequest::isSend).count()).isEqualTo(5);
    }
}
