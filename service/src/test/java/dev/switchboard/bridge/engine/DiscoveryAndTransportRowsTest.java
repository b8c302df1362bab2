package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.card;
import static dev.switchboard.bridge.engine.Wire.card03;
import static dev.switchboard.bridge.engine.Wire.card10;
import static dev.switchboard.bridge.engine.Wire.http;
import static dev.switchboard.bridge.engine.Wire.task;
import static dev.switchboard.bridge.engine.Wire.transport;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.CallFailure.TransportKind;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCapabilities;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Seed 000, "Discovery and transport": one test per row (B1, B2). */
class DiscoveryAndTransportRowsTest {

    @Test
    @DisplayName("Discovery: Serve A2A 1.0 or 0.3 over JSON-RPC — interfaces that are not JSON-RPC are dropped; "
            + "a card with none left fails the turn with 'agent card lists no JSON-RPC interface'")
    void discovery_nonJsonRpcInterfacesAreDroppedAndNoneLeftFailsTheTurn() {
        EngineHarness h = EngineHarness.a2a();
        h.chat("m1", "hello");
        h.card(card(List.of(new AgentInterface("http://x/grpc", "GRPC", "1.0", null),
                new AgentInterface("http://x/rest", "HTTP+JSON", "1.0", null)), AgentCapabilities.streamingOnly()));

        assertThat(h.sends()).isEmpty();
        assertThat(h.notices()).singleElement().asString().contains("agent card lists no JSON-RPC interface");
        assertThat(h.lastView("m1")).isEqualTo(TurnView.NOT_DELIVERED);
        assertThat(h.finished("m1")).isTrue();

        // a 1.0 gRPC interface is dropped before the version is read: the JSON-RPC one left speaks 0.3
        EngineHarness mixed = EngineHarness.a2a();
        mixed.chat("m1", "hello");
        mixed.card(card(List.of(new AgentInterface("http://x/grpc", "GRPC", "1.0", null),
                new AgentInterface("http://x/rpc", "JSONRPC", "0.3", null)), AgentCapabilities.streamingOnly()));
        assertThat(mixed.session.agentVersion()).isEqualTo(ProtocolVersion.V0_3);
        assertThat(mixed.sends()).hasSize(1);
    }

    @Test
    @DisplayName("Discovery: Serve its card at the endpoint plus /.well-known/agent-card.json — "
            + "the card fetch fails and the turn is retried, then fails after 15 minutes")
    void discovery_cardFetchFailureIsRetriedThenFailsAfterFifteenMinutes() {
        EngineHarness h = EngineHarness.a2a();
        h.agent(call -> call instanceof Effect.FetchCard ? EngineHarness.replyFailure(call, http(404)) : null);
        h.chat("m1", "hello");

        h.advance(Duration.ofMinutes(14).plusSeconds(59));
        int fetches = h.all(Effect.FetchCard.class).size();
        assertThat(fetches).as("retried with a backoff of up to 30 s").isBetween(30, 40);
        assertThat(h.notices()).isEmpty();
        assertThat(h.lastView("m1")).isEqualTo(TurnView.RETRYING);

        h.advance(Duration.ofSeconds(31));
        assertThat(h.notices()).singleElement().asString().contains("the agent could not be reached");
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.sends()).isEmpty();
    }

    @Test
    @DisplayName("Discovery: Set capabilities.streaming: true on the card — the agent is refused; "
            + "the non-streaming send is never used")
    void discovery_cardWithoutStreamingIsRefused() {
        EngineHarness h = EngineHarness.a2a();
        h.chat("m1", "hello");
        h.card(card(card10().interfaces(), new AgentCapabilities(false, true, false, false, List.of())));

        assertThat(h.sends()).isEmpty();
        assertThat(h.notices()).singleElement().asString().contains(Notices.NO_STREAMING);
        assertThat(h.finished("m1")).isTrue();

        // with streaming, every send is a SendStreamingMessage: there is no other kind of send
        EngineHarness ok = EngineHarness.a2a();
        ok.completedTurn("m1", "hi", "t1", "c1", "yes");
        assertThat(ok.log).noneMatch(e -> e.getClass().getSimpleName().contains("SendMessage"));
        assertThat(ok.sends()).hasSize(1);
    }

    @Test
    @DisplayName("Discovery: Mark no extension required that the dialect does not speak (kagent-v1: kagent's "
            + "human-in-the-loop; a2a: none) — the connect fails with 'agent requires an unsupported extension'")
    void discovery_requiredExtensionTheDialectDoesNotSpeakFailsTheConnect() {
        String hitl = Engine.KAGENT_HITL;

        EngineHarness a2a = EngineHarness.a2a();
        a2a.chat("m1", "hello");
        a2a.card(card(card10().interfaces(), Wire.requiring(hitl)));
        assertThat(a2a.notices()).singleElement().asString().contains("agent requires an unsupported extension");
        assertThat(a2a.sends()).isEmpty();

        EngineHarness kagent = EngineHarness.kagent();
        kagent.chat("m1", "hello");
        kagent.card(card(card10().interfaces(), Wire.requiring(hitl)));
        assertThat(kagent.notices()).isEmpty();
        assertThat(kagent.sends()).hasSize(1);

        EngineHarness other = EngineHarness.kagent();
        other.chat("m1", "hello");
        other.card(card(card10().interfaces(), Wire.requiring("https://example.com/ext/payments")));
        assertThat(other.notices()).singleElement().asString().contains("agent requires an unsupported extension");
        assertThat(other.sends()).isEmpty();

        // kagent-v1 speaks exactly kagent's hitl/v1: another kagent.dev extension, or a later version, is not it
        for (String near : new String[] {"https://kagent.dev/extensions/hitl/v2", "https://kagent.dev/extensions/other"}) {
            EngineHarness k = EngineHarness.kagent();
            k.chat("m1", "hello");
            k.card(card(card10().interfaces(), Wire.requiring(near)));
            assertThat(k.notices()).as(near).singleElement().asString().contains("agent requires an unsupported extension");
            assertThat(k.sends()).isEmpty();
        }

        // an extension that is offered but not required is no reason to refuse
        EngineHarness optional = EngineHarness.a2a();
        optional.chat("m1", "hello");
        optional.card(card(card10().interfaces(), new AgentCapabilities(true, false, false, false,
                List.of(new dev.switchboard.protocol.model.AgentExtension("https://example.com/x", null, false, null)))));
        assertThat(optional.sends()).hasSize(1);
    }

    @Test
    @DisplayName("Discovery: Answer at the endpoint itself, without a redirect — a 3xx is a failed call; "
            + "no redirect is followed")
    void discovery_redirectIsAFailedCall() {
        // the client never follows it; the engine sees HTTP 302 and treats the call as failed (not sent)
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "hello");
        h.fail(http(302));

        assertThat(h.lastView("m1")).isEqualTo(TurnView.RETRYING);
        Effect again = h.nextCall(Duration.ofMinutes(1));
        assertThat(again).as("nothing reached the agent: sent again, no lookup")
                .isInstanceOfSatisfying(Effect.SendStream.class, s -> assertThat(s.message().messageId()).isEqualTo("m1"));

        // a redirected card fetch fails the same way and is retried
        EngineHarness card = EngineHarness.a2a();
        card.chat("m1", "hello");
        card.fail(http(301));
        assertThat(card.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.FetchCard.class);

        // and a redirect that never stops fails the turn after 15 minutes
        h.agent(call -> call instanceof Effect.SendStream ? EngineHarness.replyFailure(call, http(307)) : null);
        h.fail(http(307));
        h.advance(Duration.ofMinutes(16));
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.lastView("m1")).isEqualTo(TurnView.NOT_DELIVERED);
        assertThat(h.all(Effect.ListTasks.class)).isEmpty();
    }

    @Test
    @DisplayName("Discovery: Send response headers within 30 seconds of every call, streams included — "
            + "the call fails as a lost connection")
    void discovery_noResponseHeadersInThirtySecondsIsALostConnection() {
        // the client cuts the call at 30 s and reports HEADERS_TIMEOUT; the engine treats it as LOST
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "hello");
        h.fail(transport(TransportKind.HEADERS_TIMEOUT));
        assertThat(h.nextCall(Duration.ofMinutes(1))).as("outcome unknown: looked up first")
                .isInstanceOfSatisfying(Effect.ListTasks.class, l -> assertThat(l.contextId()).isEqualTo("c1"));

        EngineHarness lost = EngineHarness.a2a();
        lost.completedTurn("m0", "first", "t0", "c1", "ok");
        lost.chat("m1", "hello");
        lost.fail(transport(TransportKind.LOST));
        assertThat(lost.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.ListTasks.class);

        // on a subscription (a stream too) it is a lost stream: the task is read again
        EngineHarness sub = EngineHarness.a2a();
        sub.firstTurn("m1", "hello");
        sub.event(task("t1", "c1", TaskState.WORKING));
        sub.drop(Wire.dropped());
        sub.nextCall(Duration.ofSeconds(2));
        sub.read(task("t1", "c1", TaskState.WORKING));
        sub.call(Effect.Subscribe.class);
        sub.fail(transport(TransportKind.HEADERS_TIMEOUT));
        assertThat(sub.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.GetTask.class);
    }

    @Test
    @DisplayName("Discovery: The interface URLs in the card are ignored; the card is fetched on first use and "
            + "again when the AgentBackend's URL or the Binding's credentials change")
    void discovery_cardIsFetchedOnFirstUseAndAgainWhenUrlOrCredentialsChange() {
        EngineHarness h = EngineHarness.a2a();
        h.chat("m1", "one");
        assertThat(h.expect(Effect.FetchCard.class)).isNotNull();
        // the card points elsewhere: the engine only reads the version; calls name no URL, the driver uses the endpoint
        h.card(card(List.of(new AgentInterface("https://elsewhere.example/rpc", "JSONRPC", "1.0", null)),
                AgentCapabilities.streamingOnly()));
        h.stream(task("t1", "c1", TaskState.COMPLETED, "1"));

        h.chat("m2", "two");
        assertThat(EngineHarness.of(h.last, Effect.FetchCard.class)).as("not fetched again").isEmpty();
        assertThat(h.call()).isInstanceOf(Effect.SendStream.class);
        h.stream(task("t2", "c1", TaskState.COMPLETED, "2"));

        // the Binding's credentials (or the backend's URL) changed: the driver hands in a new fingerprint
        h.session = h.session.withSettings(true, Duration.ofHours(1), "fp-2");
        h.chat("m3", "three");
        assertThat(h.expect(Effect.FetchCard.class)).isNotNull();
        h.card(card03());
        assertThat(h.call(Effect.SendStream.class).message().messageId()).isEqualTo("m3");
        assertThat(h.session.agentVersion()).isEqualTo(ProtocolVersion.V0_3);
    }
}
