package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
@ServerTest
class BindingCallsBridgeTest {

    @TempDir
    static Path dir;

    static Vertx vertx;
    static SwitchboardApp app;
    static ChatApi chat;
    static TestAgent cards;
    static TestAgent traced;
    static TestAgent untraced;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        ConfigYaml config = ConfigYaml.server(dir.resolve("chat.db"), false, ConfigYaml.QUICK_CONTRACT);
        cards = TestAgent.start(vertx, TestAgentOptions.echo("cards").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/echo"), 0).await();
        config.webAgent("cards", cards.url(), false);
        // each stream is cut after its first event while the task goes on: a turn of several calls (send, GetTask, …)
        traced = TestAgent.start(vertx, TestAgentOptions.echo("traced").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/drop 1"), 0).await();
        config.webAgent("traced", traced.url(), false);
        untraced = TestAgent.start(vertx, TestAgentOptions.echo("untraced").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/drop 1"), 0).await();
        config.webAgent("untraced", untraced.url(), false);
        app = SwitchboardFixture.builder().vertx(vertx).yaml(config).start().app();
        chat = new ChatApi(app.baseUrl());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close().await();
        }
        for (TestAgent a : new TestAgent[] {cards, traced, untraced}) {
            if (a != null) {
                a.close().await();
            }
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

    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-01");

    private static String traceId(RecordedRequest r) {
        Matcher m = TRACEPARENT.matcher(Objects.requireNonNullElse(r.header("traceparent"), ""));
        assertThat(m.matches()).as("traceparent %s", r.header("traceparent")).isTrue();
        return m.group(1);
    }

    private static String spanId(RecordedRequest r) {
        Matcher m = TRACEPARENT.matcher(r.header("traceparent"));
        assertThat(m.matches()).isTrue();
        return m.group(2);
    }

    @Test
    @DisplayName("What is sent: the W3C trace context — one trace per turn: every call of a turn carries the same trace "
            + "id with a span id of its own; a chat message that came with a traceparent continues that trace and its "
            + "tracestate is passed on unchanged")
    void everyCallOfATurnCarriesTheTurnsTraceAndTheChatMessagesContextContinues() {
        String parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
        Sent sent = chat.newThread("traced", "trace me", null, Map.of(
                "traceparent", "00-" + parentTrace + "-00f067aa0ba902b7-01", "tracestate", "vendor=opaque,other=x"));
        chat.awaitState(sent, "completed");
        List<RecordedRequest> calls = traced.recorder().requests();
        assertThat(calls.stream().filter(r -> !"GET".equals(r.httpMethod())).count())
                .as("the send, then GetTask (and more) after the cut stream").isGreaterThanOrEqualTo(2);
        assertThat(calls).allSatisfy(r -> {
            assertThat(traceId(r)).isEqualTo(parentTrace);
            assertThat(spanId(r)).isNotEqualTo("00f067aa0ba902b7");
            assertThat(r.header("tracestate")).isEqualTo("vendor=opaque,other=x");
        });
        assertThat(calls.stream().map(BindingCallsBridgeTest::spanId).distinct().count())
                .as("a fresh span id per call").isEqualTo(calls.size());

        // without a trace context: a trace of the turn's own, the same at every call; the next turn has another
        Sent first = chat.newThread("untraced", "no trace given");
        chat.awaitState(first, "completed");
        int firstTurnCalls = untraced.recorder().requests().size();
        Sent second = chat.send(first.threadId(), "a second turn");
        chat.awaitState(second, "completed");
        List<RecordedRequest> all = untraced.recorder().requests();
        List<RecordedRequest> turn1 = all.subList(0, firstTurnCalls);
        List<RecordedRequest> turn2 = all.subList(firstTurnCalls, all.size());
        assertThat(turn1.size()).isGreaterThanOrEqualTo(2);
        assertThat(turn2.size()).isGreaterThanOrEqualTo(2);
        assertThat(turn1.stream().map(BindingCallsBridgeTest::traceId).distinct().toList()).hasSize(1);
        assertThat(turn2.stream().map(BindingCallsBridgeTest::traceId).distinct().toList()).hasSize(1)
                .doesNotContain(traceId(turn1.get(0)), parentTrace);
        assertThat(all).allSatisfy(r -> assertThat(r.header("tracestate")).isNull());
        assertThat(all.stream().map(BindingCallsBridgeTest::spanId).distinct().count()).isEqualTo(all.size());
    }
}
